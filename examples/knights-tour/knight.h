/* knight.h - the knight's tour model, for a program that links it in. */
#ifndef KNIGHT_H
#define KNIGHT_H

#include <csearch/model.h>

extern const struct cs_model knight_model;

#endif
