FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY hog_core ./hog_core
COPY cucumber_core ./cucumber_core
COPY storage ./storage
COPY bot ./bot
RUN pip install --no-cache-dir .
VOLUME /data
WORKDIR /data
ENV PYTHONUNBUFFERED=1 HOG_DB=/data/hogbot.sqlite3 HOG_CACHE=/data/solutions
CMD ["python", "-m", "bot"]
