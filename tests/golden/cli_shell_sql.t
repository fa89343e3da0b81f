# The shell's SQL mode: .sql switches to the dialect; a statement runs at
# the line that ends with ';', a transaction at its COMMIT.
$ printf '.sql\nCREATE TABLE t (a INT64,\n  b DECIMAL(5,2));\nBEGIN;\nINSERT INTO t VALUES (1, 2.5);\nINSERT INTO t VALUES (2, 3);\nCOMMIT;\nSELECT * FROM t;\n.tables\n.format csv\nSELECT sum(b) AS s FROM t;\n.sql off\n.sql maybe\n' | pier shell
a  b
1  2.50
2  3.00
(2 rows)
t
s
5.5
! pier: usage: .sql takes on or off
[exit 1]
$ printf '.sql\nINSERT INTO t VALUES (3, 1.234);\nSELECT count(*) AS n FROM t;\nSELECT\n' | pier shell
n
2
(1 row)
! pier: error: ColumnTypeConflict: column 'b' of table 't' is DECIMAL(5,2), got '1.234': more digits after the point than the column's scale allows (values are never rounded)
! pier: usage: the input ended inside a SQL script (no ';', or a BEGIN without COMMIT); it was not run
[exit 1]
