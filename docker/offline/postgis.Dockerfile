# Offline stand-in for the official postgis/postgis:<pg major>-<postgis> image: Debian bookworm (debootstrap)
# with Debian's PostgreSQL and PostGIS packages, and an entrypoint keeping the official image's documented
# contract (POSTGRES_USER, POSTGRES_PASSWORD, POSTGRES_DB, PGDATA, init of an empty data directory,
# /docker-entrypoint-initdb.d). Built by build-images.sh.
FROM location-imagery-search/offline-base:bookworm
ARG PG_MAJOR
# uid/gid 999 as in the official image, created before the packages so they use it.
RUN groupadd --system --gid 999 postgres \
  && useradd --system --uid 999 --gid postgres --home-dir /var/lib/postgresql --shell /bin/bash postgres \
  && mkdir -p /var/lib/postgresql /etc/postgresql-common/createcluster.d \
  && chown postgres:postgres /var/lib/postgresql \
  && echo 'create_main_cluster = false' > /etc/postgresql-common/createcluster.d/no-main-cluster.conf \
  && apt-get update \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
       postgresql-${PG_MAJOR} postgresql-${PG_MAJOR}-postgis-3 postgresql-${PG_MAJOR}-postgis-3-scripts \
  && apt-get clean && rm -rf /var/lib/apt/lists/*
ENV PG_MAJOR=${PG_MAJOR} \
    PATH=/usr/lib/postgresql/${PG_MAJOR}/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    PGDATA=/var/lib/postgresql/data \
    LANG=C.UTF-8
RUN mkdir -p "$PGDATA" /var/run/postgresql /docker-entrypoint-initdb.d \
  && chown postgres:postgres "$PGDATA" /var/run/postgresql && chmod 1777 "$PGDATA" && chmod 3777 /var/run/postgresql
COPY postgis-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
# Mode 0644 (as in git): sourced by the entrypoint, as the official image sources its 10_postgis.sh.
COPY postgis-init.sh /docker-entrypoint-initdb.d/10_postgis.sh
VOLUME /var/lib/postgresql/data
LABEL org.opencontainers.image.description="Offline stand-in for postgis/postgis (Debian bookworm, PostgreSQL ${PG_MAJOR}, PostGIS 3)" \
      location-imagery-search.offline-stand-in="true"
ENTRYPOINT ["docker-entrypoint.sh"]
# Fast shutdown, as the official image: SIGTERM would wait for every client to disconnect.
STOPSIGNAL SIGINT
EXPOSE 5432
CMD ["postgres"]
