/**
 * Effect + side -> direction: the one table that decides who a change breaks.
 *
 * A request schema is what the server validates: accepting fewer values
 * breaks clients that send the old ones, accepting more is additive. A
 * response or event schema is what the client reads (and, with the
 * client's default `validation: "throw"`, validates): accepting more values
 * breaks readers, accepting fewer breaks nobody, and losing something the
 * old document promised (a field, an enum value, an event type) breaks the
 * code written against it. Inside a `not` the set is inverted, so a
 * narrowing there is a widening of the whole (`inverted`).
 */
import type { Direction, Effect, Side } from "./change.js";

const TABLE: Readonly<Record<Side, Readonly<Record<Effect, Direction>>>> = {
  request: {
    narrow: "breaks-clients",
    widen: "additive",
    change: "breaks-clients",
    removed: "breaks-clients",
    additive: "additive",
    info: "info",
  },
  response: {
    narrow: "info",
    widen: "breaks-readers",
    change: "breaks-readers",
    removed: "breaks-readers",
    additive: "additive",
    info: "info",
  },
  operation: {
    narrow: "breaks-clients",
    widen: "additive",
    change: "breaks-clients",
    removed: "breaks-clients",
    additive: "additive",
    info: "info",
  },
};

/** Under `not`, narrowing and widening swap; what cannot be inverted exactly (a removal, an addition) needs review. */
const INVERTED: Readonly<Record<Effect, Effect>> = {
  narrow: "widen",
  widen: "narrow",
  change: "change",
  removed: "change",
  additive: "change",
  info: "info",
};

export function classify(effect: Effect, side: Side, inverted: boolean): Direction {
  return TABLE[side][inverted ? INVERTED[effect] : effect];
}
