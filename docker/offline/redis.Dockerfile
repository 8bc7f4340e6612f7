# Offline stand-in for the official redis image (the scale profile's shared rate-limit counters): Debian
# bookworm (debootstrap) with Debian's redis-server, run in the foreground. Built by build-images.sh.
FROM location-imagery-search/offline-base:bookworm
RUN apt-get update \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends redis-server \
  && apt-get clean && rm -rf /var/lib/apt/lists/*
LABEL org.opencontainers.image.description="Offline stand-in for redis (Debian bookworm's redis-server)" \
      location-imagery-search.offline-stand-in="true"
USER redis
WORKDIR /var/lib/redis
EXPOSE 6379
CMD ["redis-server", "--protected-mode", "no"]
