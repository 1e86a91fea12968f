# The Tafsiri server (decision 015; docker-compose.yml runs two of it behind Caddy).
# Stage 1 installs every dependency and builds what `npm start` builds: the web app
# (`npm run build -w @tafsiri/web`) and the compiled server (`npm run build -w @tafsiri/server`,
# scripts/server-build.mjs, decision 026); stage 2 keeps the production dependencies, the sources
# (the compiled server's source maps point at them) and the two builds.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY packages/api/package.json packages/api/
COPY packages/domain/package.json packages/domain/
COPY packages/db/package.json packages/db/
COPY packages/ui/package.json packages/ui/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build -w @tafsiri/web && npm run build -w @tafsiri/server

FROM node:20-bookworm-slim
ENV NODE_ENV=production
# pg_dump and pg_restore of the database server's major version (15) for `npm run backup` /
# `restore` and the scheduled backups (decision 027).
RUN apt-get update && apt-get install -y --no-install-recommends postgresql-client-15 \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY packages/api/package.json packages/api/
COPY packages/domain/package.json packages/domain/
COPY packages/db/package.json packages/db/
COPY packages/ui/package.json packages/ui/
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY . .
COPY --from=build /app/apps/web/dist apps/web/dist
COPY --from=build /app/apps/server/dist apps/server/dist
# DATA_DIR holds the uploads' temp files (and, without SMTP_URL, the mail outbox); a volume
# mounted here starts out owned by the unprivileged `node` user.
RUN mkdir -p /data /backups && chown node:node /data /backups
USER node
ENV HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:3000/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# One node process running the compiled server (no tsx: about 70 MB less on PostgreSQL than
# `node --import tsx apps/server/src/server.ts`, decision 026), with stack traces mapped to the
# TypeScript; it is PID 1 and shuts down cleanly on SIGTERM (apps/server/src/server.ts).
CMD ["node", "--enable-source-maps", "apps/server/dist/server.js"]
