# `pier help --man` prints the man page pier(1) and `pier help --completion
# bash|zsh` a completion script, all made from the command table and the
# help texts (the build installs them: tests/e2e/test_manual.sh and
# test_completion.sh check their content). Any other shell, a COMMAND with
# them, or both at once is a usage error; none opens the lake.
$ pier help --man | head -4
.\" pier(1), made by `pier help --man` from the command's own help.
.TH PIER 1 "" "pier 0.1.0" "User Commands"
.nh
.SH NAME
$ pier help --man | grep -c '^\.SS '
40
$ pier help --completion bash | tail -1
complete -F _pier pier
$ pier help --completion=zsh | head -1
| #compdef pier
$ pier help --completion fish
! pier: usage: help: option '--completion' takes bash or zsh, not 'fish'
! Try 'pier help --help'.
[exit 2]
$ pier help --completion
! pier: usage: help: option '--completion' needs a value
! Try 'pier help --help'.
[exit 2]
$ pier help --man count
! pier: usage: help: --man and --completion take no command and go alone
! Try 'pier help --help'.
[exit 2]
$ pier help --man --completion zsh
! pier: usage: help: --man and --completion take no command and go alone
! Try 'pier help --help'.
[exit 2]
$ ls
