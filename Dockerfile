# The Tenant Registry's API and worker: one image, two commands, the ones `npm run api` and `npm run worker` run
# (docker-compose.yml picks one per service). TypeScript runs as-is through Node's type stripping: no build step.
FROM node:24-bookworm-slim

WORKDIR /app
ENV NODE_ENV=production

# Dependencies first, so a source change does not reinstall them. Only what runs: no test or benchmark tools.
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

COPY . .

# In containers the service always runs against external PostgreSQL and Temporal (DATABASE_URL, TEMPORAL_ADDRESS):
# nothing is written to the image's file system, so an unprivileged user suffices.
USER node
ENV HOST=0.0.0.0 PORT=8080
EXPOSE 8080
# Node itself is the container's main process, not npm: `docker stop` sends SIGTERM to that process alone, and npm
# exits on it without passing it on, so the service would be killed instead of draining requests and letting running
# activities finish.
CMD ["node", "--disable-proto=throw", "api/main.ts"]
