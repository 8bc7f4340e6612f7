# Offline stand-in for the official nginx image (the scale profile's load balancer): Debian bookworm
# (debootstrap) with Debian's nginx, run in the foreground as the official image runs it. The compose file
# mounts a whole nginx.conf, so the distribution's defaults do not matter. Built by build-images.sh.
FROM location-imagery-search/offline-base:bookworm
RUN apt-get update \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nginx-light \
  && apt-get clean && rm -rf /var/lib/apt/lists/* \
  && ln -sf /dev/stdout /var/log/nginx/access.log && ln -sf /dev/stderr /var/log/nginx/error.log
LABEL org.opencontainers.image.description="Offline stand-in for nginx (Debian bookworm's nginx)" \
      location-imagery-search.offline-stand-in="true"
EXPOSE 80
STOPSIGNAL SIGQUIT
CMD ["nginx", "-g", "daemon off;"]
