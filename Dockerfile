# mekref as a service: the referee daemon (battle-file watcher) and its gRPC API.
# Two stages: the first builds the wheels of mekref-api (clients/api: its build generates
# mekref.v1 from proto/) and of the server, which requires it, and a virtual environment; the second is the slim runtime with that environment, run as a non-root
# user. See docs/deploy.md (compose.yaml runs it beside PostgreSQL).
ARG PYTHON_VERSION=3.12

FROM python:${PYTHON_VERSION}-slim AS build
WORKDIR /src
RUN pip install --no-cache-dir build==1.6.1
COPY . .
RUN python -m build --wheel --outdir /dist clients/api \
 && python -m build --wheel --outdir /dist . \
 && python -m venv /opt/mekref \
 && /opt/mekref/bin/pip install --no-cache-dir /dist/mekref_api-*.whl /dist/mekref-*.whl

FROM python:${PYTHON_VERSION}-slim
# libcairo2: PNG maps (mekref map render -o x.png); SVG needs nothing. Debian's security updates
# within the release are wanted, so the version is not pinned.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends libcairo2 \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 mekref \
 && useradd --system --uid 10001 --gid mekref --home-dir /var/lib/mekref --create-home \
      --shell /usr/sbin/nologin mekref
COPY --from=build /opt/mekref /opt/mekref
ENV PATH=/opt/mekref/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    XDG_DATA_HOME=/var/lib
USER 10001:10001
WORKDIR /var/lib/mekref
# The campaign store (SQLite), quarantine copies and uploads live here unless --db names a
# PostgreSQL server. XDG_DATA_HOME=/var/lib makes it mekref's default data folder too, so a
# command run without --db finds the same store as the service.
VOLUME ["/var/lib/mekref"]
EXPOSE 50051
# The standard gRPC health protocol, through the probe shipped in the package (needs --grpc).
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 \
  CMD ["python", "-m", "mekref.daemon.healthcheck", "127.0.0.1:50051", "--timeout", "5"]
ENTRYPOINT ["mekref"]
# --create: the first start makes the store (any other command refuses a missing one).
CMD ["serve", "--db", "/var/lib/mekref/mekref.db", "--create", "--watch", "/megamek/logs", \
     "--grpc", "0.0.0.0:50051", "--log-format", "json"]
