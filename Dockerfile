# Location Imagery Search: multi-stage build, Node 20 slim, production dependencies only, non-root.
# No `# syntax=` line: BuildKit would pull a frontend image for it, which fails where no registry is reachable.
# Offline: `npm run docker:offline-images` builds node:20-slim locally (the first FROM names it).

# --- install: all dependencies, downloaded once (the one stage that needs the npm registry)
FROM node:20-slim AS install
WORKDIR /app
# swagger-ui-dist pulls in @scarf/scarf, whose install script phones home; scripts are off anyway.
ENV SCARF_ANALYTICS=false
COPY package.json package-lock.json ./
# --ignore-scripts: no engine downloads at install; the client is generated explicitly below.
RUN npm ci --ignore-scripts --no-audit --no-fund

# --- build: generate the Prisma client, compile TypeScript
FROM install AS build
COPY prisma.config.ts tsconfig.json tsconfig.build.json nest-cli.json ./
COPY prisma ./prisma
# prisma.config.ts reads src/config/database-url.ts, so sources come before generating the client.
COPY src ./src
# The web page (GET /) is bundled by esbuild into dist/web.
COPY web ./web
# scripts/build.mjs builds the server and the page (and stamps the build so it is not redone).
COPY scripts ./scripts
RUN npx prisma generate && npm run build

# --- deps: production dependencies only (dev tools and optional peers such as the prisma CLI left out),
# pruned from the install stage rather than installed again; cached while package*.json do not change.
FROM install AS deps
RUN npm prune --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund

# --- runtime
FROM node:20-slim AS runtime
WORKDIR /app
# HOST: a container's loopback is its own, so it listens on every interface of the container even on
# the built-in database (publishing the port is the choice to expose it; docs/security.md).
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0
COPY --from=deps /app/node_modules ./node_modules
# sharp's native build and its libvips for this platform are optional dependencies of sharp, which the
# prune above leaves out with the other optional ones: they come from the install stage.
COPY --from=install /app/node_modules/@img ./node_modules/@img
# The generated Prisma client lives in node_modules/.prisma.
COPY --from=build /app/node_modules/.prisma ./node_modules/.prisma
COPY --from=build /app/dist ./dist
# Migrations are applied by the app at startup, so they ship with it.
COPY package.json ./
COPY prisma ./prisma
# Without DATABASE_URL the app runs its built-in database in DATA_DIR: give the non-root user a place
# for it (mount a volume there to keep it). docker-compose.yml uses the PostGIS service instead.
ENV DATA_DIR=/data
# glibc's per-thread arenas keep the buffers libvips frees when a photo import resizes images (sharp's docs).
ENV MALLOC_ARENA_MAX=2
RUN mkdir -p /data/images && chown -R node:node /data
USER node
EXPOSE 3000
# Ready = database reachable and migrations applied (node:20-slim has no curl).
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM drains in-flight requests for up to SHUTDOWN_TIMEOUT_MS (default 10 s), then exits 0.
STOPSIGNAL SIGTERM
# The heap bound keeps V8 from growing the heap as if the machine's memory were for it (see
# docs/operations.md#memory); `npm start` passes the same.
CMD ["node", "--max-old-space-size=1024", "dist/src/main.js"]
