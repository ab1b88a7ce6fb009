#!/usr/bin/env bash
# completion_test.sh - completion/csearch.bash as a user meets it: what TAB
# puts on the line and what a second TAB lists, exactly.
#
#   usage: completion_test.sh CSEARCH SOURCE_DIR
#
# Calling _csearch and reading COMPREPLY is not enough: bash then quotes the
# reply under the options of `complete -p csearch` and of compopt (with
# -o filenames, "key=" went in as "key\=", and the values were lost after
# it).  So each case runs _csearch with COMP_WORDS split as bash splits
# them, a compopt that records what the function asks for, and readline's
# rules: one match is inserted quoted if filenames is on, followed by a
# space unless nospace; several are listed sorted.  With tmux present, the
# same keystrokes go to an interactive bash as well.
set -u
. "$(dirname "$0")/cli_lib.sh" # fail, cli_finish
csearch=$1 src=$2
failures=0
completion=$src/completion/csearch.bash
bindir=$(cd "$(dirname "$csearch")" && pwd)

# tab WORDS...: what one TAB does with the last word of "csearch WORDS...",
# as "insert TEXT" (the line's last word after it) or "list A B ..."
tab() {
    PATH=$bindir:$PATH bash -c '
        . "$0"
        opts=" $(complete -p csearch | grep -oE -- "-o [a-z]+" | cut -c4- | tr "\n" " ") "
        compopt() { # records -o/+o NAME as bash would for this completion
            while [ $# -ge 2 ]; do
                case $1 in
                -o) opts="${opts// $2 / } $2 " ;;
                +o) opts="${opts// $2 / }" ;;
                esac
                shift 2
            done
        }
        COMP_WORDS=(csearch "$@") COMP_CWORD=$#
        _csearch
        if [ ${#COMPREPLY[@]} -ne 1 ]; then
            printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " " | sed "s/^/list /; s/ $//"
            echo
            exit
        fi
        text=${COMPREPLY[0]}
        # readline quotes a file name with bash'"'"'s filename_quote_characters
        [[ $opts == *" filenames "* ]] &&
            text=$(printf "%s" "$text" | sed "s/[] \\\\\"'"'"'@<>=;|&()#\$\`*?[!:{~]/\\\\&/g")
        [[ $opts == *" nospace "* ]] || text="$text "
        printf "insert %s\n" "$text"' "$completion" "$@"
}

# expect WANT WORDS...: one TAB after "csearch WORDS..." does WANT
expect() {
    local want=$1 got
    shift
    got=$(tab "$@")
    [ "$got" = "$want" ] || fail "csearch $* <TAB>: got '$got', expected '$want'"
}

# A key is completed to "key=" with nothing after it, then its values: with
# "=" in COMP_WORDBREAKS (bash's default) the "=" is a word of its own.
expect 'insert strategy.symmetry=' x --set strategy.symm
expect 'list d4 mirror none' x --set strategy.symmetry =
expect 'insert mirror ' x --set strategy.symmetry = m
expect 'list d4 mirror none' x --set strategy.symmetry = ''
# without "=" in COMP_WORDBREAKS the key and value are one word
expect 'list strategy.symmetry=d4 strategy.symmetry=mirror strategy.symmetry=none' \
    x --set strategy.symmetry=
expect 'insert strategy.symmetry=mirror ' x --set strategy.symmetry=m
expect 'insert model=' x --set mode
expect 'list flatzinc nqueens shifts sudoku' x --set model =
expect 'insert optimize ' x --set task = o
expect 'insert --threads ' x --thr
# file names, whole and quoted, after the options that take one and as the config
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 2
touch 'my board.yaml'
expect 'insert my\ board.yaml ' my
expect 'insert my\ board.yaml ' x --tree my
cd "$src" || exit 2

# The same in an interactive bash (tmux), as keystrokes: TAB, TAB TAB, m TAB.
if command -v tmux >/dev/null; then
    session=csearch-completion-$$
    # screen SECONDS TEXT: wait until the screen shows TEXT (a fixed string)
    screen() {
        local i
        for ((i = 0; i < $1 * 10; i++)); do
            tmux capture-pane -p -t "$session" | grep -qF -- "$2" && return 0
            sleep 0.1
        done
        fail "interactive bash: '$2' never shown; the screen was:"
        tmux capture-pane -p -t "$session" | grep -v '^$' | sed 's/^/    /'
        return 1
    }
    tmux new-session -d -s "$session" -x 160 -y 20 \
        "env -i PATH=$bindir:/usr/bin:/bin TERM=xterm HOME=/nonexistent INPUTRC=/dev/null PS1='$ ' bash --norc --noprofile"
    tmux send-keys -t "$session" ". '$completion'" Enter
    tmux send-keys -t "$session" "csearch x --set strategy.symm" Tab
    if screen 10 'csearch x --set strategy.symmetry='; then
        tmux send-keys -t "$session" Tab Tab
        screen 10 'd4      mirror  none' &&
            tmux send-keys -t "$session" m Tab &&
            screen 10 'csearch x --set strategy.symmetry=mirror'
        tmux capture-pane -p -t "$session" | grep -qF 'symmetry\=' &&
            fail "interactive bash: the '=' of the key was quoted"
    fi
    tmux kill-session -t "$session"
else
    echo "tmux is missing: the interactive check is skipped"
fi

cli_finish completion
