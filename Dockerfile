# syntax=docker/dockerfile:1

# ---- Install: every dependency, for the build.
FROM node:26-bookworm-slim AS install
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

# ---- Build: the hashed browser bundle (with its brotli and gzip copies) and the bundled server.
FROM install AS build
COPY tsconfig.json ./
COPY client ./client
COPY server ./server
COPY shared ./shared
COPY scripts ./scripts
RUN npm run build

# ---- Production dependencies only, without install scripts. Optional dependencies stay: the
# image library (sharp) installs its prebuilt binaries for this platform as optional packages.
# What only type-checking uses (typescript and React's types, optional peers of i18next and
# react-i18next, kept by npm as optional) is removed after.
FROM node:26-bookworm-slim AS production-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
  && rm -rf node_modules/typescript node_modules/@types node_modules/csstype

# ---- Runtime: slim, production dependencies only, nothing writable but /tmp is needed.
FROM node:26-bookworm-slim AS runtime
ENV NODE_ENV=production PORT=3000 METRICS_PORT=9464 HOST=0.0.0.0
# The heap is bounded so that resident memory stays well inside the manifest's limit (300Mi):
# the live heap stays near 30 MB, but on a large host V8 would let the young generation alone
# grow to about 100 MB. 8 MB semi-spaces hold 1,000 connections' requests in flight between
# scavenges (with 16 MB the server was 11-15 MB larger under load and no faster; with 2 MB, before
# pretenuring was off, they were promoted wholesale and `/` lost half its throughput). And glibc
# gives each busy thread its own malloc arena; two arenas stop resident memory from creeping up
# under sustained load. `npm run bench` reports the peak beside the limit (see "Memory" in
# docs/speed.md). --enable-source-maps: a logged stack trace names the TypeScript file and line
# (the map ships beside the bundled server).
ENV NODE_OPTIONS="--max-old-space-size=96 --max-semi-space-size=8 --enable-source-maps" MALLOC_ARENA_MAX=2
WORKDIR /app
COPY --from=production-deps /app/node_modules ./node_modules
COPY package.json ./
COPY --from=build /app/dist ./dist
COPY locales ./locales
COPY content ./content
COPY public ./public
# The image's unprivileged "node" user, by number so that Kubernetes can check runAsNonRoot.
USER 1000:1000
EXPOSE 3000 9464
# The slim image has no curl: Node itself asks the liveness endpoint.
HEALTHCHECK --interval=15s --timeout=5s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz', { signal: AbortSignal.timeout(4000) }).then((res) => process.exit(res.ok ? 0 : 1), () => process.exit(1))"]
# Node itself, not npm, so that it receives SIGTERM and can shut down gracefully. Without V8's
# allocation-site pretenuring (a flag Node refuses in NODE_OPTIONS): under a thousand keep-alive
# connections it sent every answer's objects to the old generation in about half of the processes
# ("The collector's slow state" in docs/speed.md).
CMD ["node", "--no-allocation-site-pretenuring", "dist/server/index.js"]
