# syntax=docker/dockerfile:1

# ---- Install: every dependency, for the build.
FROM node:24-bookworm-slim AS install
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

# ---- Build: the hashed browser bundle and the bundled server.
FROM install AS build
COPY tsconfig.json ./
COPY client ./client
COPY server ./server
COPY shared ./shared
COPY scripts ./scripts
COPY locales ./locales
COPY content ./content
COPY public ./public
RUN npm run build

# ---- Production dependencies only.
FROM node:24-bookworm-slim AS production-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

# ---- Runtime: slim, non-root, node started directly so it receives the stop signal.
FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production PORT=3000
WORKDIR /app
COPY --from=production-deps /app/node_modules ./node_modules
COPY package.json ./
COPY --from=build /app/dist ./dist
COPY locales ./locales
COPY content ./content
COPY public ./public
USER node
EXPOSE 3000
CMD ["node", "dist/server/index.js"]
