# syntax=docker/dockerfile:1
#
# One recipe for the three services; compose.yaml builds it once per service:
#
#   docker build --build-arg SERVICE=shortener --build-arg PORT=3001 -t linkgeo-shortener .
#   docker build --build-arg SERVICE=geocoder  --build-arg PORT=3002 -t linkgeo-geocoder .
#   docker build --build-arg SERVICE=gateway   --build-arg PORT=8080 -t linkgeo-gateway .
#
# One file rather than one per service: the three differ only in their folder
# and port, so Bun's version, the install and the hardening live in one place,
# and the dependency layer is shared by the three builds.

# The Bun that wrote bun.lock (gateway/test/compose.test.ts checks the major.minor).
ARG BUN_VERSION=1.4.5

FROM oven/bun:${BUN_VERSION}-slim AS deps
WORKDIR /app
# Manifests only, so this layer is rebuilt when dependencies change, not code.
# A frozen install needs every workspace's package.json, or it sees the
# lockfile as out of date.
COPY package.json bun.lock bunfig.toml ./
COPY shared/package.json shared/
COPY shared/testing/package.json shared/testing/
COPY shortener/package.json shortener/
COPY geocoder/package.json geocoder/
COPY gateway/package.json gateway/
COPY webapp/package.json webapp/
RUN bun install --frozen-lockfile --production

FROM oven/bun:${BUN_VERSION}-slim
ARG SERVICE
ARG PORT
RUN test -n "$SERVICE" && test -n "$PORT" \
    || { echo "build with --build-arg SERVICE=shortener|geocoder|gateway --build-arg PORT=<its port>" >&2; exit 1; }
ENV NODE_ENV=production
# Bun's allocator hands freed memory back to the system after a second, not
# mimalloc's 10 ms: fewer system calls per request (shared/src/core/allocator-settings.ts,
# where this value is kept; a test holds this line to it).
ENV MIMALLOC_PURGE_DELAY=1000
WORKDIR /app
COPY --from=deps /app/node_modules node_modules
# The workspace root's manifest; bunfig.toml only matters to the install.
COPY package.json ./
COPY shared shared
# The web app is the gateway's; the other two images carry its few hundred KB
# unused rather than a second recipe.
COPY webapp webapp
COPY ${SERVICE} ${SERVICE}
# The code stays root-owned, read-only to the service; only data/ is its own,
# for SQLite files (the shortener without DATABASE_URL, the geocoder's L2
# cache). A named volume mounted there starts with this ownership.
RUN install -d -o bun -g bun "${SERVICE}/data"
WORKDIR /app/${SERVICE}
ENV PORT=${PORT}
USER bun
EXPOSE ${PORT}
# The image has no curl: Bun itself asks /health. --start-interval (Docker 25+)
# polls quickly at start, so `depends_on: service_healthy` releases within a second or two.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --start-interval=1s --retries=3 \
    CMD ["bun", "-e", "fetch('http://127.0.0.1:'+process.env.PORT+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["bun", "run", "src/main.ts"]
