-- tests/e2e/test_codegen.sh: every type of the dialect, on three tables,
-- a view and a board, for the generated header and JSON Schema.
CREATE TABLE people (
  id      INT64 PRIMARY KEY AUTOINCREMENT,
  name    VARCHAR(40) NOT NULL,
  email   TEXT UNIQUE,
  born    DATE,
  joined  INSTANT NOT NULL,
  score   DOUBLE NOT NULL DEFAULT 0,
  ratio   FLOAT32,
  active  BOOLEAN NOT NULL DEFAULT TRUE,
  badge   UUID,
  avatar  BLOB,
  tiny    INT8,
  small   INT16,
  mid     INT32,
  u8      UINT8,
  u16     UINT16,
  u32     UINT32,
  u64     UINT64,
  huge    INT128,
  "class" TEXT,
  serial  TEXT NOT NULL READONLY
);
CREATE TABLE tickets (
  id        INT64 PRIMARY KEY AUTOINCREMENT,
  owner     INT64 NOT NULL REFERENCES people(id),
  status    ENUM('open', 'closed', 'reopened') NOT NULL DEFAULT 'open',
  price     DECIMAL(12,2),
  amount    DECIMAL,
  opened_at DATETIME,
  at_time   TIME,
  wait      INTERVAL,
  meta      JSON,
  tags      TEXT[],
  grid      INT32[][],
  anything  ANY
);
CREATE TABLE notes (
  code TEXT PRIMARY KEY,
  body TEXT NOT NULL
);
CREATE VIEW open_tickets (id INT64, owner INT64, price DECIMAL(12,2),
                          status ENUM('open', 'closed', 'reopened')) AS
  SELECT id, owner, price, status FROM tickets WHERE status = 'open';
CREATE BOARD events (kind text, n double, big hugeint, at timestamp,
                     doc json, qty integer, price decimal(8,2), u uint64,
                     tags text[]) STRICT;
