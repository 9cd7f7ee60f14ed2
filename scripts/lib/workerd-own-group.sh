#!/bin/sh
# The workerd binary miniflare runs, started in a process group (and session) of its own: `wrangler dev`
# runs it through this file when serveBuild({ workerdOwnGroup: true }) sets MINIFLARE_WORKERD_PATH to it
# (scripts/lib/server.mjs). A CPU measurement by process group then counts the Worker's runtime apart
# from wrangler and its dev proxy (scripts/peer-bench.mjs). setsid execs in place (this process leads
# no group), so the pid, the configuration on stdin and the control pipe on fd 3 stay what miniflare
# gave; WORKERD_BINARY is the binary miniflare would have started.
exec setsid "$WORKERD_BINARY" "$@"
