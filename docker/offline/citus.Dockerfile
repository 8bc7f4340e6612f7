# Offline route to the citus profile's image (the same tag docker/citus/Dockerfile builds from Citus's
# packages): Citus compiled from the vendored source (CITUS_SOURCE, default ../shared/vendor/citus beside the
# clone: the release tarball and a one-hunk patch for PostgreSQL 15.20) against Debian's PostgreSQL 15 in
# the offline PostGIS image, then only its installed files copied into that image. Built by build-images.sh.
ARG POSTGIS_IMAGE=postgis/postgis:15-3.3

# --- build: Debian's server headers and Citus's build dependencies (its README); libcurl left out (it only
# serves Citus's anonymous statistics collection, which is then off).
FROM ${POSTGIS_IMAGE} AS build
ARG PG_MAJOR=15
ARG CITUS_VERSION
RUN apt-get update \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
       postgresql-server-dev-${PG_MAJOR} build-essential liblz4-dev libzstd-dev libkrb5-dev libssl-dev \
       libselinux1-dev libxslt1-dev libpam0g-dev autoconf flex bison patch \
  && rm -rf /var/lib/apt/lists/*
# The context: the tarball and its patches (*.patch, applied in name order). The patch for PostgreSQL 15.20
# removes Citus's own have_createdb_privilege(), so it applies only where the server's headers declare
# one (Debian's 15.20); the image's PostgreSQL may be an earlier 15 (bookworm's point release: 15.18).
COPY . /src/
WORKDIR /src
RUN tar -xzf citus-${CITUS_VERSION}.tar.gz \
  && cd citus-${CITUS_VERSION} \
  && if grep -rqs have_createdb_privilege "$(pg_config --includedir-server)/commands/dbcommands.h"; then \
       for p in ../*.patch; do patch -p1 < "$p"; done; fi \
  && ./configure --without-libcurl > /dev/null \
  && make -j"$(nproc)" > /dev/null \
  && make install DESTDIR=/out > /dev/null

# --- runtime: the PostGIS image with Citus's library, extension scripts and tools, loaded at start.
FROM ${POSTGIS_IMAGE}
COPY --from=build /out/ /
# Citus must be loaded at server start (first in the list); initdb copies the sample into each new cluster.
RUN find /usr/share/postgresql -name postgresql.conf.sample \
    -exec sh -c 'echo "shared_preload_libraries = '"'"'citus'"'"'" >> "$1"' sh '{}' ';'
LABEL org.opencontainers.image.description="Offline stand-in for the citus profile's image: PostGIS + Citus ${CITUS_VERSION} built from source" \
      location-imagery-search.offline-stand-in="true"
