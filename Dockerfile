FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 QUIZBOT_DB=/data/quizbot.sqlite3
WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY content ./content
COPY locales ./locales
COPY schema ./schema
# Editable install: content/ and locales/ are read from /app at run time.
RUN pip install --no-cache-dir -e . && useradd --system --uid 10001 quizbot \
    && mkdir /data && chown quizbot /data
USER quizbot
VOLUME ["/data"]
# Refuses to start on broken content or an unusable database (non-zero exit).
CMD ["quizbot", "run"]
