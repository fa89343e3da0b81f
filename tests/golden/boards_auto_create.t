# A write to an unknown board creates it (auto-create on-write, the
# default); the write's watermark comes after the board's schema record.
$ pier insert acme_roadmap '{"id":"task-1","state":"active","title":"Ship it"}'
2
$ pier boards
acme_roadmap
$ pier count acme_roadmap
1

# Under --auto-create=never a write to an unknown board is refused with
# BoardNotFound and creates nothing: no board, no watermark (the next
# write's watermark follows the last one).
$ pier --auto-create=never insert acme_archive '{"id":"x"}'
! pier: error: BoardNotFound: no board 'acme_archive', and this engine creates boards only explicitly (auto-create is never)
[exit 1]
$ pier has-board acme_archive
false
$ pier --auto-create=never create-board acme_archive
3
$ pier --auto-create=never insert acme_archive '{"id":"x"}'
4

# No read ever creates a board, under either setting.
$ pier get nowhere x
! pier: error: BoardNotFound: no board 'nowhere'
[exit 1]
$ pier count nowhere
! pier: error: BoardNotFound: no board 'nowhere'
[exit 1]
$ pier schema nowhere
! pier: error: BoardNotFound: no board 'nowhere'
[exit 1]
$ pier dump nowhere
! pier: error: BoardNotFound: no board 'nowhere'
[exit 1]
$ pier has-board nowhere
false
$ pier boards
acme_archive
acme_roadmap
