# Wolfpack server + web app in one image. Build from the repository root:
#   docker build -t wolfpack .
# Run alone (embedded PGlite database in the /data volume):
#   docker run --init -p 3000:3000 -v wolfpack-data:/data wolfpack
# Run several replicas on PostgreSQL behind a proxy: deploy/compose.yaml, docs/DEPLOYMENT.md.
#
# Needs BuildKit (RUN --mount=type=cache): Docker 23 and later use it by default; on Docker 20.10
# set DOCKER_BUILDKIT=1. There is no `# syntax=docker/dockerfile:1` line on purpose: the
# Dockerfile frontend built into BuildKit (Docker 20.10 and later) has everything used here,
# whereas that line makes every build first pull the docker/dockerfile image from Docker Hub,
# so a build without Docker Hub (offline, or only a private registry or mirror) fails before its
# first step.

ARG NODE_IMAGE=node:24-bookworm-slim

# ---- build: install every dependency, build all packages, then cut out the server's production tree
FROM ${NODE_IMAGE} AS build
# The pnpm version scripts/toolchain.sh pins (package.json has no packageManager field). Installed
# with npm because corepack fails on the registry's signatures for it.
ARG PNPM_VERSION=12.21.0
RUN npm install --global --no-audit --no-fund --loglevel=error "pnpm@${PNPM_VERSION}"
WORKDIR /src

# Manifests first, so editing sources does not invalidate the dependency layer.
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml ./
COPY packages/core/package.json packages/core/
COPY packages/server/package.json packages/server/
COPY packages/web/package.json packages/web/
COPY packages/cli/package.json packages/cli/
RUN --mount=type=cache,id=wolfpack-pnpm-store,target=/pnpm-store \
    pnpm install --frozen-lockfile --store-dir /pnpm-store

COPY . .
# Vite builds production React unless NODE_ENV says otherwise; keep it unset here (pnpm install
# above needed the dev dependencies that NODE_ENV=production would have skipped).
RUN pnpm build

# The server package with only its production dependencies (@wolfpack/core included, as a copy)
# in a self-contained node_modules. --legacy: the workspace does not inject workspace packages.
# The TypeScript sources and benchmarks of both are dropped: only their dist/ runs.
RUN --mount=type=cache,id=wolfpack-pnpm-store,target=/pnpm-store \
    pnpm --filter @wolfpack/server --prod deploy --legacy --store-dir /pnpm-store /out/packages/server \
 && rm -rf /out/packages/server/src /out/packages/server/bench \
           /out/packages/server/node_modules/@wolfpack/core/src /out/packages/server/node_modules/@wolfpack/core/bench \
 && mkdir -p /out/packages/web \
 && cp -r packages/web/dist /out/packages/web/dist

# ---- runtime: Node and the deployed tree, bubblewrap and Chromium for Proven Code's sandbox
FROM ${NODE_IMAGE} AS runtime
# Proven Code runs generated code only inside bubblewrap, and Chromium loads generated pages
# inside it. Under Docker's defaults bubblewrap cannot start (the default seccomp profile refuses
# new user namespaces, and the masked /proc keeps it from mounting its own), so verdicts say
# "not executed: no sandbox on this server" and stay `unproven`. Running the container with
# `--security-opt seccomp=unconfined --security-opt systempaths=unconfined` lets it start (both
# are needed); docs/DEPLOYMENT.md weighs that choice.
RUN apt-get update && apt-get install -y --no-install-recommends bubblewrap chromium && rm -rf /var/lib/apt/lists/*
# GLIBC_TUNABLES: as npm start sets it (scripts/start.sh says why).
ENV NODE_ENV=production \
    GLIBC_TUNABLES=glibc.malloc.mmap_threshold=16384 \
    HOST=0.0.0.0 \
    PORT=3000 \
    WOLFPACK_DATA_DIR=/data
# The same layout as the monorepo: the server finds the web app at ../../web/dist from its
# dist/index.js, so packages/web/dist is served without any setting.
COPY --from=build /out /app
# Code stays owned by root and read-only to the server; only the data directory is writable.
RUN mkdir -p /data && chown node:node /data
WORKDIR /app/packages/server
# `node` (uid 1000) comes with the official Node images.
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# dist/main.js starts the server from the environment and closes it cleanly on SIGTERM.
CMD ["node", "dist/main.js"]
