/* map.h - the map-colouring model, for a program that links it in. */
#ifndef MAP_H
#define MAP_H

#include <csearch/model.h>

extern const struct cs_model map_model;

#endif
