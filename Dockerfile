FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY hog_core ./hog_core
COPY cucumber_core ./cucumber_core
COPY storage ./storage
COPY bot ./bot
RUN pip install --no-cache-dir . \
    && useradd --system --uid 10001 --home-dir /data --no-create-home hogbot \
    && mkdir /data && chown hogbot /data
# the bot runs as a user of its own, not root; the volume keeps the games, the solved rule sets and
# the contest's compiled sweep (numba caches it beside the package unless told where: read-only here)
USER hogbot
VOLUME /data
WORKDIR /data
ENV PYTHONUNBUFFERED=1 HOG_DB=/data/hogbot.sqlite3 HOG_CACHE=/data/solutions NUMBA_CACHE_DIR=/data/numba
CMD ["python", "-m", "bot", "discord"]
