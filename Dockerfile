# The Tenant Registry's API and worker: one image, the commands `npm run api`, `npm run worker` and `npm run migrate`
# run (docker-compose.yml picks one per service). TypeScript runs as-is through Node's type stripping: no build step.
# Node 24 is the base image's: the project's `node` package (Node 24 for `npm ci` on any machine) is a development
# dependency, and so are the embedded PostgreSQL binaries; the image runs against external PostgreSQL and Temporal.
# test/deploy/productionInstall.test.ts does what this file does (without Docker): the same context, `npm ci
# --omit=dev`, the same commands against a real PostgreSQL and Temporal. test/deploy/containerImage.test.ts builds this
# file with podman (deploy/image/build) and runs the image's containers.

# The base: Node 24 on Debian bookworm with the unprivileged user 1000:1000. Where the official image cannot be pulled,
# deploy/image/build-base makes an equivalent one from Debian's packages and deploy/image/build passes it here.
ARG BASE_IMAGE=node:24-bookworm-slim

# Stage 1: the production dependencies alone, installed where npm's cache and the lockfile's tooling stay behind.
FROM ${BASE_IMAGE} AS dependencies
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

# Stage 2: what runs. Owned by root and read-only to the service's user: it writes nothing to its own tree (the
# compile cache is off where the tree is read-only).
FROM ${BASE_IMAGE}
WORKDIR /app
ENV NODE_ENV=production
COPY --from=dependencies /app/node_modules ./node_modules
COPY . .

# The base image's unprivileged `node` user, by number: Kubernetes' runAsNonRoot can only verify a numeric user.
USER 1000:1000
ENV HOST=0.0.0.0 PORT=8080
EXPOSE 8080
# Node itself is the container's main process, not npm: `docker stop` sends SIGTERM to that process alone, and npm
# exits on it without passing it on, so the service would be killed instead of draining requests and letting running
# activities finish.
CMD ["node", "--disable-proto=throw", "api/main.ts"]
