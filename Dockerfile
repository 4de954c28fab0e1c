# syntax=docker/dockerfile:1
# The site as a container (issue 33, ADR 0075): built once at image build time, run as a non-root
# user with production dependencies only. `docker compose up` (compose.yaml) runs it on PostgreSQL
# with a mail catcher.

# The site's own Node.js major (package.json pins 24); Debian, like the machines the tests run on.
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# Every dependency, for the build; no install scripts (the linter's tree is the developers', not the
# image's). `npm install` from the lock file, not `npm ci`, as CI does: the lock file leaves out
# optional platform builds the registry here lacks, which `npm ci` refuses (.ci/run).
RUN npm install --ignore-scripts --no-audit --no-fund
COPY . .
RUN npx react-router build

FROM ${NODE_IMAGE} AS production-dependencies
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm install --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

FROM ${NODE_IMAGE}
# glibc's allocator as `npm start` sets it (ADRs 0078, 0080): two arenas, and blocks of 16 KB and
# more (a page's bytes, a kept page's) mapped apart and given back when freed. Without them RSS
# under load was ~100 MB higher.
# V8's young generation at 8 MB a semi-space (ADR 0080): ~100 MB less under load, the same CPU.
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATA_DIR=/data \
    MALLOC_ARENA_MAX=2 \
    MALLOC_MMAP_THRESHOLD_=16384 \
    NODE_OPTIONS=--max-semi-space-size=8
WORKDIR /app
COPY --from=production-dependencies /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY package.json ./
COPY server/index.js ./server/index.js
# The data folder (the SQLite file when DATABASE_URL is unset, the auth secret, the mail outbox),
# owned by the image's unprivileged user.
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 3000
# Alive and its database answering (ADR 0015); an orchestrator routes traffic by /readyz.
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:3000/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM reaches node itself (no shell in between), which drains within 10 s.
CMD ["node", "server/index.js"]
