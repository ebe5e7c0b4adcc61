# The bot in a slim Python image; the SQLite database lives on the /data volume.
# The whole build context goes in (minus .dockerignore) and is installed from pyproject.toml, so the image holds
# every package the code imports and every file of data/ (fonts, locales, cards, tracks) next to it.
# tests/test_docker_image.py lays out what the COPY lines below copy and starts the bot from it.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_PATH=/data/gamehost.db \
    HEALTH_PORT=8080 \
    OPS_HOST=0.0.0.0

RUN useradd --create-home --uid 10001 gamehost \
    && mkdir -p /data && chown gamehost:gamehost /data

WORKDIR /app
COPY . .
# editable: the packages run from /app, where their data/ is (the code finds it relative to itself); the
# dependencies are exactly the pins of pyproject.toml
RUN pip install --no-cache-dir -e .

USER gamehost
VOLUME ["/data"]
EXPOSE 8080
# ready = the gateway is connected and the store open (GET /healthz on HEALTH_PORT, see host/metrics.py)
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 CMD ["python", "bot.py", "healthcheck"]
CMD ["python", "bot.py"]
