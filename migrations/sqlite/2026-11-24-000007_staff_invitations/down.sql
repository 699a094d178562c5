DROP TABLE staff_invitations;
