#!/bin/sh
# As the official redis image's entrypoint: flags alone are redis-server's, and redis-server
# listens on every interface without protected mode (the container's network is the boundary).
set -eu
if [ "$#" = 0 ] || [ "${1#-}" != "$1" ]; then set -- redis-server "$@"; fi
if [ "$1" = redis-server ]; then
  shift
  set -- redis-server --bind 0.0.0.0 --protected-mode no --dir /data "$@"
fi
exec "$@"
