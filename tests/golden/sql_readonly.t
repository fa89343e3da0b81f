# READONLY: every UPDATE that assigns the column fails with
# ReadonlyColumn, in every form, and changes nothing; INSERT and DELETE
# stay allowed; a rename keeps the protection; dropping the column
# removes it.
$ pier sql "CREATE TABLE inv (id INT64 PRIMARY KEY READONLY, tenant UUID NOT NULL READONLY, amount DECIMAL(12,2)); INSERT INTO inv VALUES (1, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '10.00'), (2, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12', '20.00')"
2 rows changed
$ pier sql "UPDATE inv SET tenant = 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a13' WHERE id = 1"
! pier: error: ReadonlyColumn: column 'tenant' of table 'inv' is READONLY: no UPDATE may assign it
[exit 1]
$ pier sql "UPDATE inv SET tenant = tenant"
! pier: error: ReadonlyColumn: column 'tenant' of table 'inv' is READONLY: no UPDATE may assign it
[exit 1]
$ pier sql "UPDATE inv SET (amount, tenant) = ('1.00', tenant)"
! pier: error: ReadonlyColumn: column 'tenant' of table 'inv' is READONLY: no UPDATE may assign it
[exit 1]
$ pier sql "UPDATE OR REPLACE inv SET tenant = tenant"
! pier: error: ReadonlyColumn: column 'tenant' of table 'inv' is READONLY: no UPDATE may assign it
[exit 1]
$ pier sql "INSERT INTO inv VALUES (1, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a19', '5.00') ON CONFLICT(id) DO UPDATE SET tenant = excluded.tenant"
! pier: error: ReadonlyColumn: column 'tenant' of table 'inv' is READONLY: no UPDATE may assign it
[exit 1]
$ pier sql "UPDATE inv SET id = 7 WHERE id = 1"
! pier: error: ReadonlyColumn: column 'id' of table 'inv' is READONLY: no UPDATE may assign it
[exit 1]
$ pier sql "UPDATE inv SET rowid = 7 WHERE id = 1"
! pier: error: ReadonlyColumn: column 'id' of table 'inv' is READONLY: no UPDATE may assign it
[exit 1]
$ pier sql "UPDATE inv SET oid = 7 WHERE id = 1"
! pier: error: ReadonlyColumn: column 'id' of table 'inv' is READONLY: no UPDATE may assign it
[exit 1]
$ pier sql "UPDATE inv SET _rowid_ = 7 WHERE id = 1"
! pier: error: ReadonlyColumn: column 'id' of table 'inv' is READONLY: no UPDATE may assign it
[exit 1]
$ pier sql "SELECT * FROM inv ORDER BY id"
id  tenant                                amount
1   a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11  10.00
2   a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12  20.00
(2 rows)
$ pier sql "UPDATE inv SET amount = '11.00' WHERE id = 1"
1 row changed
$ pier sql "INSERT INTO inv VALUES (1, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '5.00') ON CONFLICT(id) DO UPDATE SET amount = excluded.amount"
1 row changed
$ pier sql "INSERT INTO inv VALUES (3, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a13', NULL); DELETE FROM inv WHERE id = 2"
1 row changed
$ pier sql "ALTER TABLE inv RENAME COLUMN tenant TO owner"
$ pier sql "UPDATE inv SET owner = owner"
! pier: error: ReadonlyColumn: column 'owner' of table 'inv' is READONLY: no UPDATE may assign it
[exit 1]
$ pier sql "ALTER TABLE inv ADD COLUMN note TEXT READONLY"
$ pier sql "UPDATE inv SET note = 'x'"
! pier: error: ReadonlyColumn: column 'note' of table 'inv' is READONLY: no UPDATE may assign it
[exit 1]
$ pier schema inv
table inv
column  type           readonly
id      INT64          yes
owner   UUID           yes
amount  DECIMAL(12,2)  no
note    TEXT           yes
$ pier sql "ALTER TABLE inv DROP COLUMN note; ALTER TABLE inv ADD COLUMN note TEXT; UPDATE inv SET note = 'x'"
2 rows changed
$ pier sql "SELECT * FROM inv ORDER BY id"
id  owner                                 amount  note
1   a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11  5.00    x
3   a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a13  null    x
(2 rows)
$ pier sql "CREATE TABLE g (a INT64, b INT64 READONLY AS (a * 2))"
! pier: error: QueryFailed: column 'b' is generated: it cannot be READONLY (nothing assigns it) (at byte 25 of the script)
[exit 1]
$ pier sql "CREATE TABLE p (id INT64 PRIMARY KEY); CREATE TABLE c (p INT64 READONLY REFERENCES p(id) ON UPDATE CASCADE)"
! pier: error: QueryFailed: column 'p' cannot be READONLY: its foreign key changes it ON UPDATE (at byte 55 of the script)
[exit 1]
