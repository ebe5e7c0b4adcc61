# The bot in a slim Python image; the SQLite database lives on the /data volume.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DATABASE_PATH=/data/gamehost.db

RUN useradd --create-home --uid 10001 gamehost \
    && mkdir -p /data && chown gamehost:gamehost /data

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot.py settings.py ./
COPY engines ./engines
COPY host ./host
COPY cogs ./cogs
COPY render ./render
COPY store ./store
COPY ai ./ai
COPY data ./data
RUN pip install --no-cache-dir .

USER gamehost
VOLUME ["/data"]
CMD ["python", "bot.py"]
