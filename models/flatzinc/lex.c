/* lex.c - FlatZinc text to tokens (lex.h), one at a time, each byte looked
 * at a bounded number of times: lexing is linear in the input.
 *
 * Whitespace and `% ...` comments separate tokens.  A number's sign belongs
 * to it (FlatZinc has no arithmetic), so `-3` is one INT token.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lex.h"

#define FZN_QUOTE_MAX 20 /* bytes of a token quoted in a message */

static bool is_digit(int c)
{
    return c >= '0' && c <= '9';
}
static bool is_alpha(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int digit_value(int c)
{
    if (is_digit(c))
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return 99;
}

/* Step over n bytes of one line. */
static void advance(struct fzn_lexer *lx, size_t n)
{
    lx->p += n;
    lx->col = (size_t)lx->col + n > INT_MAX ? INT_MAX : lx->col + (int)n;
}

static void skip_blanks(struct fzn_lexer *lx)
{
    while (lx->p < lx->end) {
        char c = *lx->p;
        if (c == '\n') {
            lx->p++;
            lx->line += lx->line < INT_MAX;
            lx->col = 1;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' ||
                   c == '\v') {
            advance(lx, 1);
        } else if (c == '%') {
            const char *nl = memchr(lx->p, '\n', (size_t)(lx->end - lx->p));
            advance(lx, (size_t)((nl ? nl : lx->end) - lx->p));
        } else {
            return;
        }
    }
}

int fzn_lex_error(struct fzn_lexer *lx, const struct fzn_token *t,
                  const char *msg)
{
    struct cs_pos pos = {lx->file, t->line, t->col};
    return cs_error_at(lx->err, pos, "%s", msg);
}

/* A float literal's value (its digits are copied: text has no NUL). */
static double float_value(const char *s, size_t len)
{
    char small[64];
    char *buf = len < sizeof small ? small : cs_xmalloc(len + 1);
    memcpy(buf, s, len);
    buf[len] = '\0';
    double f = strtod(buf, NULL);
    if (buf != small)
        free(buf);
    return f;
}

/* [-+]? then decimal, 0x hex or 0o octal digits, or a float:
 * digits '.' digits [eE][-+]digits, or digits [eE][-+]digits. */
static int lex_number(struct fzn_lexer *lx, const char *s)
{
    struct fzn_token *t = &lx->tok;
    const char *p = s, *end = lx->end;
    bool neg = *p == '-';
    if (*p == '-' || *p == '+')
        p++;
    int base = 10;
    if (p + 2 < end && p[0] == '0' && (p[1] == 'x' || p[1] == 'o') &&
        digit_value(p[2]) < (p[1] == 'x' ? 16 : 8)) {
        base = p[1] == 'x' ? 16 : 8;
        p += 2;
    }
    uint64_t limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    uint64_t mag = 0;
    bool over = false;
    for (; p < end && digit_value((unsigned char)*p) < base; p++) {
        unsigned d = (unsigned)digit_value((unsigned char)*p);
        if (mag > (limit - d) / (unsigned)base)
            over = true;
        else
            mag = mag * (unsigned)base + d;
    }
    bool frac = base == 10 && p + 1 < end && p[0] == '.' && is_digit(p[1]);
    if (frac)
        for (p++; p < end && is_digit(*p); p++)
            ;
    bool expo = false;
    if (base == 10 && p + 1 < end && (*p == 'e' || *p == 'E')) {
        const char *e = p[1] == '-' || p[1] == '+' ? p + 2 : p + 1;
        expo = e < end && is_digit(*e);
    }
    if (expo)
        for (p += 2; p < end && is_digit(*p); p++)
            ;
    t->len = (size_t)(p - s);
    if (frac || expo) {
        t->kind = FZN_TOK_FLOAT;
        t->f = float_value(s, t->len);
        return 0;
    }
    t->kind = FZN_TOK_INT;
    if (over)
        return fzn_lex_error(lx, t, "integer literal out of range");
    t->i = neg ? (int64_t)(0 - mag) : (int64_t)mag;
    if (neg && mag == (uint64_t)INT64_MAX + 1)
        t->i = INT64_MIN;
    return 0;
}

/* "..." on one line; a backslash escapes the byte after it. */
static int lex_string(struct fzn_lexer *lx, const char *s)
{
    struct fzn_token *t = &lx->tok;
    const char *p = s + 1;
    while (p < lx->end && *p != '"' && *p != '\n') {
        if (*p == '\\' && p + 1 < lx->end && p[1] != '\n')
            p++;
        p++;
    }
    t->kind = FZN_TOK_STRING;
    if (p == lx->end || *p != '"') {
        t->len = 1;
        return fzn_lex_error(lx, t, "unterminated string");
    }
    t->len = (size_t)(p + 1 - s);
    return 0;
}

static enum fzn_tok punctuation(const char *p, const char *end, size_t *len)
{
    *len = 1;
    switch (*p) {
    case ';':
        return FZN_TOK_SEMI;
    case ',':
        return FZN_TOK_COMMA;
    case '(':
        return FZN_TOK_LPAREN;
    case ')':
        return FZN_TOK_RPAREN;
    case '[':
        return FZN_TOK_LBRACK;
    case ']':
        return FZN_TOK_RBRACK;
    case '{':
        return FZN_TOK_LBRACE;
    case '}':
        return FZN_TOK_RBRACE;
    case '=':
        return FZN_TOK_EQ;
    case ':':
        if (p + 1 < end && p[1] == ':') {
            *len = 2;
            return FZN_TOK_ANN;
        }
        return FZN_TOK_COLON;
    case '.':
        if (p + 1 < end && p[1] == '.') {
            *len = 2;
            return FZN_TOK_DOTDOT;
        }
        return FZN_TOK_OTHER;
    default:
        return FZN_TOK_OTHER;
    }
}

int fzn_lex_next(struct fzn_lexer *lx)
{
    skip_blanks(lx);
    struct fzn_token *t = &lx->tok;
    *t = (struct fzn_token){.text = lx->p, .line = lx->line, .col = lx->col};
    int rc = 0;
    const char *p = lx->p, *end = lx->end;
    if (p == end) {
        t->kind = FZN_TOK_EOF;
        return 0;
    }
    if (is_alpha((unsigned char)*p)) {
        const char *q = p + 1;
        while (q < end && (is_alpha((unsigned char)*q) || is_digit(*q)))
            q++;
        t->kind = FZN_TOK_ID;
        t->len = (size_t)(q - p);
    } else if (is_digit(*p) ||
               ((*p == '-' || *p == '+') && p + 1 < end && is_digit(p[1]))) {
        rc = lex_number(lx, p);
    } else if (*p == '"') {
        rc = lex_string(lx, p);
    } else {
        t->kind = punctuation(p, end, &t->len);
    }
    advance(lx, t->len);
    return rc;
}

int fzn_lex_init(struct fzn_lexer *lx, const char *file, const char *text,
                 size_t len, struct cs_error *err)
{
    *lx = (struct fzn_lexer){.p = text,
                             .end = text + len,
                             .line = 1,
                             .col = 1,
                             .file = file,
                             .err = err};
    return fzn_lex_next(lx);
}

char *fzn_lex_string(const struct fzn_token *t)
{
    char *s = cs_xmalloc(t->len), *o = s;
    for (size_t k = 1; k + 1 < t->len; k++) {
        char c = t->text[k];
        if (c == '\\') {
            c = t->text[++k];
            c = c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r' : c;
        }
        *o++ = c;
    }
    *o = '\0';
    return s;
}

bool fzn_lex_is(const struct fzn_token *t, const char *word)
{
    return t->kind == FZN_TOK_ID && strlen(word) == t->len &&
           memcmp(t->text, word, t->len) == 0;
}

int fzn_lex_expected(struct fzn_lexer *lx, const char *what)
{
    const struct fzn_token *t = &lx->tok;
    struct cs_pos pos = {lx->file, t->line, t->col};
    if (t->kind == FZN_TOK_EOF)
        return cs_error_at(
            lx->err, pos, "syntax error: expected %s, found end of file", what);
    /* at most FZN_QUOTE_MAX bytes, each printable or as \xNN */
    char quoted[4 * FZN_QUOTE_MAX + 4], *o = quoted;
    size_t n = t->len < FZN_QUOTE_MAX ? t->len : FZN_QUOTE_MAX;
    for (size_t k = 0; k < n; k++) {
        unsigned char c = (unsigned char)t->text[k];
        if (c >= 0x20 && c < 0x7f)
            *o++ = (char)c;
        else
            o += sprintf(o, "\\x%02x", c);
    }
    strcpy(o, t->len > n ? "..." : "");
    return cs_error_at(lx->err, pos, "syntax error: expected %s, found '%s'",
                       what, quoted);
}
