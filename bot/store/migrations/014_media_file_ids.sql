-- Telegram file_ids of content pictures (issue 17). The first send of a picture uploads its
-- bytes; Telegram's answer names the photo by a file_id that sends it again without uploading.
-- Keyed by the file's path under content/media and the SHA-256 of its bytes: an edited picture
-- is a new key, so it is uploaded again. A file_id Telegram refuses is replaced.
CREATE TABLE media_file_ids (
    path       TEXT NOT NULL,  -- relative to content/media, e.g. checkpoints.png
    sha256     TEXT NOT NULL,  -- hex digest of the bytes uploaded
    file_id    TEXT NOT NULL,  -- the largest PhotoSize of the sent photo
    stored_at  REAL NOT NULL,
    PRIMARY KEY (path, sha256)
);
