COPY t TO '{{FILE}}' (FORMAT parquet, COMPRESSION zstd);
