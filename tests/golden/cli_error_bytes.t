# An argument, an environment variable or a message quoted in a
# diagnostic shows its control bytes and invalid UTF-8 escaped, as a
# table cell does: a diagnostic stays one line of text, and a terminal's
# escape sequences (here one that would clear the screen) stay inert.
$ pier flush
$ pier $'boards\x1b[2J'
! pier: usage: unknown command 'boards\x1B[2J'
! Try 'pier --help'.
[exit 2]

$ pier count b $'\x01extra'
! pier: usage: count: unexpected argument '\x01extra'
! Try 'pier count --help'.
[exit 2]

$ pier --durability=$'full\nnormal' boards
! pier: usage: option '--durability' takes full or normal, not 'full\nnormal'
! Try 'pier --help'.
[exit 2]

$ PIER_NOW=$'2026-01-01T00:00:00Z\r' pier boards
! pier: usage: PIER_NOW: '2026-01-01T00:00:00Z\r' is not an RFC 3339 instant of the years 0001 to 9999, like 2026-01-01T00:00:00Z
! Try 'pier --help'.
[exit 2]

$ pier schema $'t\nab\xff'
! pier: error: TableNotFound: no table 't\nab\xFF'
[exit 1]

$ pier --json schema $'t\x01'
! {"error":"TableNotFound","message":"no table 't\u0001'"}
[exit 1]
