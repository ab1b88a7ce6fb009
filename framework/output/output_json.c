/* output_json.c - the JSON object's head: model, task, and the params,
 * strategy and limits the run used, echoed from the config.
 *
 * A value is copied as the user wrote it (a plain scalar that is a JSON
 * literal as it stands, else a string), and a strategy key the job resolved
 * ("auto", a model's proposal, a layer's choice) shows what was chosen.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"

void out_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", out);
        else if (*p == '\t')
            fputs("\\t", out);
        else if (*p < 0x20)
            fprintf(out, "\\u%04x", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

/* Is text a JSON literal as it stands: a number in JSON's own syntax
 * (so 007 or 0x10 stay strings and keep their digits), true, false or
 * null?  Only a plain scalar is asked: a quoted one is a string.  The text
 * is copied, never converted, so nothing the user wrote changes. */
static bool is_json_literal(const char *text)
{
    if (!strcmp(text, "true") || !strcmp(text, "false") ||
        !strcmp(text, "null"))
        return true;
    const char *p = text + (*text == '-');
    if (*p == '0')
        p++;
    else if (*p >= '1' && *p <= '9')
        while (isdigit((unsigned char)*p))
            p++;
    else
        return false;
    if (*p == '.') {
        if (!isdigit((unsigned char)*++p))
            return false;
        while (isdigit((unsigned char)*p))
            p++;
    }
    if (*p == 'e' || *p == 'E') {
        p += p[1] == '+' || p[1] == '-';
        if (!isdigit((unsigned char)*++p))
            return false;
        while (isdigit((unsigned char)*p))
            p++;
    }
    return !*p;
}

/* A config subtree (a CS_OPT_NODE param) as JSON: a mapping as an object
 * (keys in file order), a sequence as an array, a scalar as a JSON literal
 * or a string. */
static void json_node(FILE *out, const struct cs_node *node)
{
    if (cs_node_kind(node) == CS_NODE_SCALAR) {
        if (!cs_node_quoted(node) && is_json_literal(cs_node_text(node)))
            fputs(cs_node_text(node), out);
        else
            out_json_string(out, cs_node_text(node));
        return;
    }
    bool map = cs_node_kind(node) == CS_NODE_MAP;
    fputc(map ? '{' : '[', out);
    for (size_t i = 0; i < cs_node_len(node); i++) {
        fputs(i ? ", " : "", out);
        if (map) {
            out_json_string(out, cs_node_key(node, i));
            fputs(": ", out);
        }
        json_node(out, cs_node_at(node, i));
    }
    fputc(map ? '}' : ']', out);
}

/* One option's value as a JSON value of its type. */
static void json_option(FILE *out, const struct cs_config *cfg,
                        const struct cs_option *opt)
{
    switch (opt->type) {
    case CS_OPT_INT:
        fprintf(out, "%" PRId64, cs_config_int(cfg, opt->key));
        break;
    case CS_OPT_REAL:
        fprintf(out, "%.17g", cs_config_real(cfg, opt->key));
        break;
    case CS_OPT_BOOL:
        fputs(cs_config_bool(cfg, opt->key) ? "true" : "false", out);
        break;
    case CS_OPT_ENUM:
    case CS_OPT_STRING: {
        const char *s = cs_config_str(cfg, opt->key);
        if (s)
            out_json_string(out, s);
        else
            fputs("null", out);
        break;
    }
    case CS_OPT_NODE: {
        const struct cs_node *node = cs_config_node(cfg, opt->key);
        if (node)
            json_node(out, node);
        else
            fputs("null", out);
        break;
    }
    }
}

/* A strategy key whose value the job resolved ("auto" and the model's
 * proposals): what was chosen, or false when the config's value stands. */
static bool json_chosen(FILE *out, const struct cs_job *job, const char *key)
{
    const struct cs_problem *p = &job->problem;
    char text[64];
    for (size_t i = 0;
         i < sizeof p->chosen / sizeof *p->chosen && p->chosen[i].key; i++)
        if (!strcmp(key, p->chosen[i].key)) {
            const char *v = p->chosen[i].value;
            char *end;
            strtod(v, &end);
            if (*v && !*end)
                fputs(v, out); /* a number */
            else
                out_json_string(out, v);
            return true;
        }
    if (!strcmp(key, "strategy.kernel") && p->kernel)
        out_json_string(out, p->kernel); /* what "auto" became */
    else if (!strcmp(key, "strategy.state") && p->state)
        out_json_string(out, p->state); /* what the run kept */
    else if (cs_job_layer_value(job, key, text, sizeof text))
        fputs(text, out); /* what the layers settled on */
    else
        return false;
    return true;
}

/* The keys of one section ("params") from every table, as a JSON object. */
static void json_section(FILE *out, const struct cs_config *cfg,
                         const struct cs_option *const *tables,
                         const char *section, const struct cs_job *job)
{
    size_t len = strlen(section);
    int first = 1;
    fputc('{', out);
    for (; *tables; tables++)
        for (const struct cs_option *opt = *tables; opt->key; opt++) {
            if (strncmp(opt->key, section, len) || opt->key[len] != '.')
                continue;
            if (opt->type == CS_OPT_NODE && !cs_config_has(cfg, opt->key))
                continue;
            fputs(first ? "" : ", ", out);
            out_json_string(out, opt->key + len + 1);
            fputs(": ", out);
            if (!job || !json_chosen(out, job, opt->key))
                json_option(out, cfg, opt);
            first = 0;
        }
    fputc('}', out);
}

/* The head of the JSON object, written when the first board or the result
 * is: a run that fails before either leaves stdout empty. */
void out_head(struct out *o)
{
    if (o->format != CS_FORMAT_JSON || o->head_done)
        return;
    o->head_done = true;
    const struct cs_option *const tables[] = {cs_framework_options,
                                              o->job->model->options, NULL};
    fputs("{\"model\": ", o->out);
    out_json_string(o->out, o->job->model->name);
    fputs(", \"task\": ", o->out);
    out_json_string(o->out, cs_task_name(o->job->task));
    fputs(", \"params\": ", o->out);
    json_section(o->out, o->cfg, tables, "params", NULL);
    fputs(", \"strategy\": ", o->out);
    json_section(o->out, o->cfg, tables, "strategy", o->job);
    if (o->job->problem.isa) {
        fputs(", \"isa\": ", o->out);
        out_json_string(o->out, o->job->problem.isa);
        if (o->job->problem.isa_reason) {
            fputs(", \"isa_reason\": ", o->out);
            out_json_string(o->out, o->job->problem.isa_reason);
        }
    }
    fputs(", \"limits\": ", o->out);
    json_section(o->out, o->cfg, tables, "limits", NULL);
    fputs(o->job->problem.setup_instance ? ", \"results\": ["
                                         : ", \"boards\": [",
          o->out);
}
