# csearch.bash - bash completion for csearch: its options (read from
# `csearch --help`), config keys after --set (from `csearch --list`), the
# models after --set model=, the choices of enumerated keys, and files
# elsewhere.  Installed as share/bash-completion/completions/csearch;
# or source it: . completion/csearch.bash
#
# What the command prints is parsed once per shell and kept, so the
# completion follows the csearch on PATH, its version and its models.

_csearch_options=""
_csearch_keys=""

# the options and the keys (lines "    KEY   TYPE...") of this csearch
_csearch_learn() {
    local cmd=$1
    [ -n "$_csearch_options" ] && return
    _csearch_options=$("$cmd" --help 2>/dev/null |
        grep -oE -- '(^|[ ,])--?[a-z][a-z-]*' | grep -oE -- '--?[a-z][a-z-]*' | sort -u)
    _csearch_keys=$("$cmd" --list 2>/dev/null |
        sed -nE 's/^    ([a-z][a-z0-9_.]*) +(.*)$/\1 \2/p')
}

# the choices of KEY ("a | b | c" in --list), or the models for "model"
_csearch_choices() {
    local key=$1 cmd=$2
    if [ "$key" = model ]; then
        "$cmd" --list 2>/dev/null | sed -nE 's/^  ([a-z][a-z0-9_-]*): .*/\1/p'
        return
    fi
    printf '%s\n' "$_csearch_keys" | awk -v k="$key" '$1 == k {
        for (i = 2; i <= NF && $i != "(default"; i++)
            if ($i != "|" && $(i + 1) == "|" || $(i - 1) == "|") print $i
        exit }'
}

_csearch() {
    local cur prev cmd=${COMP_WORDS[0]}
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_CWORD:+${COMP_WORDS[COMP_CWORD - 1]}}
    _csearch_learn "$cmd"
    # "--set key=" splits at '=' when '=' is in COMP_WORDBREAKS: rejoin
    if [ "$cur" = "=" ] || [ "$prev" = "=" ]; then
        compopt +o filenames 2>/dev/null
        local key
        if [ "$cur" = "=" ]; then key=$prev cur=""; else key=${COMP_WORDS[COMP_CWORD - 2]}; fi
        COMPREPLY=($(compgen -W "$(_csearch_choices "$key" "$cmd")" -- "$cur"))
        return
    fi
    case $prev in
    --set)
        # keys and values are no file names: -o filenames would quote the
        # '=' of "key=" (key\=), and the key is then no longer known
        compopt +o filenames 2>/dev/null
        if [[ $cur == *=* ]]; then
            local key=${cur%%=*}
            COMPREPLY=($(compgen -P "$key=" -W "$(_csearch_choices "$key" "$cmd")" -- "${cur#*=}"))
        else
            COMPREPLY=($(compgen -S = -W "$(printf '%s\n' "$_csearch_keys" | cut -d' ' -f1)" -- "$cur"))
            compopt -o nospace 2>/dev/null
        fi
        return ;;
    --threads | --seed | --units) return ;;
    --checkpoint | --resume | --trace-html | --tree)
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
        return ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$_csearch_options" -- "$cur"))
    elif [ "$COMP_CWORD" = 1 ]; then
        # one name a line, so that a name with a space stays whole
        mapfile -t COMPREPLY < <(compgen -W "compare merge" -- "$cur"
            compgen -f -X '!*.y*ml' -- "$cur"
            compgen -d -- "$cur")
    else
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
    fi
}
complete -o filenames -F _csearch csearch
