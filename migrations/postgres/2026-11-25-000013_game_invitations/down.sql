DROP TABLE game_invitations;
