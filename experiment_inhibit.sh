#!/bin/sh
echo $$ > experiment_inhibit.pid
while [ "${1#--}" != "$1" ]; do shift; done
exec "$@"
