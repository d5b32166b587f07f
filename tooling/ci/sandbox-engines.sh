#!/usr/bin/env bash
# Makes the engines @toolplane/sandbox's tests run against available on this machine:
# Debian's docker.io, bubblewrap and busybox-static (installed with apt-get when missing), a
# Docker engine started in the background (no iptables, no bridge, vfs storage: what works on
# these machines), and the offline image the tests use, built with `docker import` from a
# busybox-static rootfs (no registry can be reached). Idempotent: a second run finds everything
# in place and says so. Prints one line per thing it did or found.
#
# Environment:
#   TOOLPLANE_DOCKER_ROOT   where the engine keeps its data (default /var/lib/toolplane-docker)
#   TOOLPLANE_SANDBOX_IMAGE the image to build (default toolplane-sandbox:busybox)
#   DOCKER_HOST             the engine's socket (default unix:///var/run/docker.sock)
set -euo pipefail

ROOT="${TOOLPLANE_DOCKER_ROOT:-/var/lib/toolplane-docker}"
IMAGE="${TOOLPLANE_SANDBOX_IMAGE:-toolplane-sandbox:busybox}"
HOST="${DOCKER_HOST:-unix:///var/run/docker.sock}"
SOCKET="${HOST#unix://}"
export DOCKER_HOST="$HOST"

say() { echo "sandbox-engines: $*"; }

# 1. Packages.
need=()
command -v dockerd >/dev/null 2>&1 || need+=(docker.io)
command -v bwrap >/dev/null 2>&1 || need+=(bubblewrap)
[ -x /bin/busybox ] || need+=(busybox-static)
if [ ${#need[@]} -gt 0 ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    say "missing ${need[*]} and no apt-get to install them" >&2
    exit 1
  fi
  say "installing ${need[*]}"
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
else
  say "docker.io, bubblewrap and busybox-static already installed"
fi

# 2. The engine. apt starts no services here, so dockerd is started by hand.
engine_up() { timeout 5 docker version --format '{{.Server.Version}}' >/dev/null 2>&1; }
if engine_up; then
  say "engine already answering at $HOST"
else
  mkdir -p "$ROOT/data" "$ROOT/exec"
  say "starting dockerd (data root $ROOT/data, socket $SOCKET, log $ROOT/dockerd.log)"
  rm -f "$SOCKET"
  nohup dockerd --iptables=false --ip6tables=false --bridge=none --storage-driver=vfs \
    --data-root "$ROOT/data" --exec-root "$ROOT/exec" --pidfile "$ROOT/dockerd.pid" \
    --host "$HOST" >"$ROOT/dockerd.log" 2>&1 </dev/null &
  # Bounded wait: 60 tries of half a second.
  for _ in $(seq 1 60); do
    engine_up && break
    sleep 0.5
  done
  if ! engine_up; then
    say "dockerd did not answer within 30 s; the end of its log:" >&2
    tail -n 20 "$ROOT/dockerd.log" >&2 || true
    exit 1
  fi
  say "engine up: $(docker version --format 'server {{.Server.Version}}, API {{.Server.APIVersion}}')"
fi

# 3. The offline image: busybox-static, its applets as relative symlinks, nobody (65534).
if docker image inspect "$IMAGE" >/dev/null 2>&1; then
  say "image $IMAGE already present"
else
  rootfs="$(mktemp -d)"
  trap 'rm -rf "$rootfs"' EXIT
  chmod 0755 "$rootfs"
  mkdir -p "$rootfs"/{bin,etc,tmp,workspace,root,home,proc,dev,sys,usr/bin,usr/sbin,sbin}
  cp /bin/busybox "$rootfs/bin/busybox"
  for applet in $(/bin/busybox --list-full); do
    [ "$applet" = "bin/busybox" ] && continue
    dir="$(dirname "$applet")"
    mkdir -p "$rootfs/$dir"
    case "$dir" in
      bin | sbin) ln -sf ../bin/busybox "$rootfs/$applet" ;;
      usr/bin | usr/sbin) ln -sf ../../bin/busybox "$rootfs/$applet" ;;
    esac
  done
  printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/tmp:/bin/sh\n' >"$rootfs/etc/passwd"
  printf 'root:x:0:\nnogroup:x:65534:\n' >"$rootfs/etc/group"
  chmod 1777 "$rootfs/tmp"
  chmod 0777 "$rootfs/workspace"
  tar -C "$rootfs" -c . | docker import -c 'ENV PATH=/usr/sbin:/usr/bin:/sbin:/bin' -c 'CMD ["/bin/sh"]' - "$IMAGE" >/dev/null
  say "built image $IMAGE with docker import ($(docker image inspect -f '{{.Size}}' "$IMAGE") bytes)"
fi
