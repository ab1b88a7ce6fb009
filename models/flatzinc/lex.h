/* lex.h - the FlatZinc reader's tokens (lex.c), private to parse.c.
 *
 * One token of lookahead, cut from the text in place: a token's text
 * points into the caller's buffer, which outlives the lexer.  Positions are
 * 1-based; a column counts bytes.  A lexical error (a bad string or an
 * integer beyond 64 bits) is reported into err when the token is reached.
 */
#ifndef FZN_LEX_H
#define FZN_LEX_H

#include "fzn.h"

enum fzn_tok {
    FZN_TOK_EOF,
    FZN_TOK_ID,     /* keywords too: the parser reads them in context */
    FZN_TOK_INT,    /* i */
    FZN_TOK_FLOAT,  /* f */
    FZN_TOK_STRING, /* text includes the quotes */
    FZN_TOK_SEMI,   /* ; */
    FZN_TOK_COLON,  /* : */
    FZN_TOK_ANN,    /* :: */
    FZN_TOK_COMMA,
    FZN_TOK_LPAREN,
    FZN_TOK_RPAREN,
    FZN_TOK_LBRACK,
    FZN_TOK_RBRACK,
    FZN_TOK_LBRACE,
    FZN_TOK_RBRACE,
    FZN_TOK_DOTDOT,
    FZN_TOK_EQ,
    FZN_TOK_OTHER /* a byte that starts no token */
};

struct fzn_token {
    enum fzn_tok kind;
    const char *text;
    size_t len;
    int line, col;
    int64_t i;
    double f;
};

struct fzn_lexer {
    const char *p, *end;
    int line, col; /* of p */
    const char *file;
    struct cs_error *err;
    struct fzn_token tok; /* the current token */
};

/* Start at text[0 .. len) and read the first token; -1 with err set when
 * it is malformed. */
int fzn_lex_init(struct fzn_lexer *lx, const char *file, const char *text,
                 size_t len, struct cs_error *err);
/* Move to the next token; -1 with err set when it is malformed. */
int fzn_lex_next(struct fzn_lexer *lx);
/* A string token's contents, unescaped, NUL-terminated (free it). */
char *fzn_lex_string(const struct fzn_token *t);
/* The token's identifier or keyword is exactly word. */
bool fzn_lex_is(const struct fzn_token *t, const char *word);
/* "syntax error: expected WHAT, found 'TOKEN'" at the current token. */
int fzn_lex_expected(struct fzn_lexer *lx, const char *what);
/* An error with a message of its own at the token t. */
int fzn_lex_error(struct fzn_lexer *lx, const struct fzn_token *t,
                  const char *msg);

#endif
