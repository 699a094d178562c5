#!/usr/bin/env bash
# Starts what the tests need if it is not running yet: PostgreSQL on 127.0.0.1:5432.
set -euo pipefail

if ! pg_isready -q -h 127.0.0.1 -p 5432; then
    echo "PostgreSQL is down: starting it"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start
    for _ in $(seq 1 30); do
        pg_isready -q -h 127.0.0.1 -p 5432 && break
        sleep 1
    done
fi
pg_isready -h 127.0.0.1 -p 5432
