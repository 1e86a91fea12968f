import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { useQuery } from "@tanstack/react-query";
import { useVirtualizer } from "@tanstack/react-virtual";
import { toast } from "sonner";
import { findGlossaryTerms, type CheckFinding, type TranslationSegment } from "@tafsiri/domain";
import type { SegmentGridData } from "#web/lib/api-types";
import { useTRPC } from "#web/lib/trpc";
import { altBindingOf, GRID_ALT_KEYS, type GridCommand } from "#web/lib/key-registry";
import {
  confirmed,
  insertedAt,
  mergedWithNext,
  splitAt,
  withOtherSpeaker,
  withTarget,
} from "#web/features/translation/lib/grid-edits";
import { caretOffsetIn } from "./segment-source";
import { SegmentRow, type RowEvents } from "./segment-row";
import { RowAssistant } from "./row-assistant";

/** What the grid asks of the original audio's player. */
export interface SpanPlayer {
  /** Plays [startMs, endMs) of the original audio (to its end without `endMs`). */
  playSpan(startMs: number, endMs: number | null): void;
}

/** A row's first guess of its height, in px, before it is measured. */
const ROW_ESTIMATE_PX = 132;
/** The pause between two plays of a looped span, in ms. */
const LOOP_GAP_MS = 400;
/** A row without findings (one array, so its row is not drawn again). */
const NO_FINDINGS: readonly CheckFinding[] = [];

/** The text field of a row that has focus, with its caret, or null. */
function focusedField(): { field: "source" | "target"; caret: number } | null {
  const element = document.activeElement;
  if (!(element instanceof HTMLElement)) return null;
  const field = element.dataset.field;
  if (field !== "source" && field !== "target") return null;
  const caret = element instanceof HTMLTextAreaElement ? element.selectionStart : caretOffsetIn(element);
  return caret === null ? null : { field, caret };
}

/**
 * Decision 035: the segment grid: one row per segment, virtualised (only the rows in view and a few
 * around them are drawn, so an hour's 1,000 segments open at once and typing redraws one row).
 * Keyboard first (GRID_ALT_KEYS and Ctrl+Enter, matched here on the whole grid); the active row
 * shows its memory matches, glossary terms and findings. Edits go to `onRowsChange`.
 */
export function SegmentGrid({
  audioId,
  data,
  rows,
  onRowsChange,
  findings,
  player,
  focusRequest,
  flags,
  onFlagsChange,
  onTakeKey,
  onActiveChange,
}: {
  audioId: string;
  data: SegmentGridData;
  rows: TranslationSegment[];
  onRowsChange(rows: TranslationSegment[]): void;
  findings: readonly CheckFinding[];
  player: SpanPlayer;
  /** A row to go to (from the checks list), by id; a new object each time. */
  focusRequest: { id: string } | null;
  /** Reviewers only: the rows marked to fix in the review being made, with their notes. */
  flags: ReadonlyMap<string, string> | null;
  onFlagsChange(flags: Map<string, string>): void;
  /** Alt+K on a row: record its take or stop (decision 035, oral translation); absent: no recorder here. */
  onTakeKey?(rowId: string): void;
  /** The active row's id, each time it changes. */
  onActiveChange?(rowId: string | null): void;
}) {
  const trpc = useTRPC();
  const scrollRef = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);
  const [looping, setLooping] = useState(false);
  const editable = data.editable;
  const sourceEditable = editable && !data.hasSourceTranscript && data.staffWriteSource;
  const activeRow = rows[Math.min(active, rows.length - 1)];
  const activeId = activeRow?.id ?? null;
  useEffect(() => onActiveChange?.(activeId), [activeId]); // eslint-disable-line react-hooks/exhaustive-deps

  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Virtual redraws the grid itself on scroll and measure.
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_ESTIMATE_PX,
    overscan: 6,
    getItemKey: (index) => rows[index]?.id ?? index,
  });

  // Whether a review has seen this translation: only then do rows say they changed since.
  const reviewedAny = Object.keys(data.reviewedTargets).length > 0;
  const findingsByRow = useMemo(() => {
    const byRow = new Map<string, CheckFinding[]>();
    for (const f of findings) byRow.set(f.segmentId, [...(byRow.get(f.segmentId) ?? []), f]);
    return byRow;
  }, [findings]);

  const activeSource = activeRow?.source.trim() ?? "";
  const matches = useQuery({
    ...trpc.translation.matches.queryOptions({ audioId, source: activeSource }),
    enabled: activeSource !== "",
    staleTime: Infinity,
  });

  /** Makes row `index` active, scrolls it into view and puts the caret in its `field`. */
  const goTo = useCallback(
    (index: number, field: "source" | "target" = "target") => {
      if (index < 0 || index >= rows.length) return;
      setActive(index);
      virtualizer.scrollToIndex(index, { align: "auto" });
      const id = rows[index]!.id;
      const focus = (tries: number) => {
        const element = scrollRef.current?.querySelector<HTMLElement>(
          `[data-segment-id="${id}"] [data-field="${field}"]`,
        );
        if (element) element.focus();
        else if (tries > 0) requestAnimationFrame(() => focus(tries - 1));
      };
      requestAnimationFrame(() => focus(10));
    },
    [rows, virtualizer],
  );

  useEffect(() => {
    if (!focusRequest) return;
    const index = rows.findIndex((r) => r.id === focusRequest.id);
    if (index >= 0) goTo(index);
    // Only a new request moves the caret, not each edit of the rows.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focusRequest]);

  const play = useCallback(
    (index: number) => {
      const row = rows[index];
      if (!row) return;
      if (row.startMs === null) toast.info("This segment has no time in the recording.");
      else player.playSpan(row.startMs, row.endMs);
    },
    [rows, player],
  );

  // Looping replays the active row's span after each play, while on.
  useEffect(() => {
    if (!looping || !activeRow || activeRow.startMs === null || activeRow.endMs === null) return;
    const { startMs, endMs } = activeRow;
    player.playSpan(startMs, endMs);
    const timer = setInterval(() => player.playSpan(startMs, endMs), endMs - startMs + LOOP_GAP_MS);
    return () => clearInterval(timer);
  }, [looping, activeRow?.id, activeRow?.startMs, activeRow?.endMs, player]); // eslint-disable-line react-hooks/exhaustive-deps

  const insertIntoTarget = useCallback(
    (text: string, replace: boolean) => {
      if (!editable || !activeRow) return;
      const field = document.activeElement;
      const caret = field instanceof HTMLTextAreaElement && field.dataset.field === "target" ? field : null;
      const next = replace
        ? text
        : insertedAt(
            activeRow.target,
            text,
            caret?.selectionStart ?? activeRow.target.length,
            caret?.selectionEnd ?? activeRow.target.length,
          );
      onRowsChange(withTarget(rows, active, next));
      goTo(active);
    },
    [editable, activeRow, rows, active, onRowsChange, goTo],
  );

  const run = (command: GridCommand | "confirmNext") => {
    if (!activeRow) return;
    const editing = editable ? onRowsChange : () => undefined;
    switch (command) {
      case "confirmNext":
        editing(confirmed(rows, active));
        goTo(Math.min(active + 1, rows.length - 1));
        return;
      case "next":
        return goTo(active + 1);
      case "previous":
        return goTo(active - 1);
      case "copySource":
        return insertIntoTarget(activeRow.source, true);
      case "match1":
      case "match2":
      case "match3": {
        const match = matches.data?.[Number(command.slice(-1)) - 1];
        if (match) insertIntoTarget(match.target, true);
        else toast.info("There is no such memory match for this segment.");
        return;
      }
      case "glossary": {
        const lower = activeRow.target.toLowerCase();
        const term = findGlossaryTerms(activeRow.source, data.glossary).find(
          (t) => !t.targetTerms.some((target) => lower.includes(target.toLowerCase())),
        );
        if (term) insertIntoTarget(term.targetTerms[0]!, false);
        else toast.info("No glossary term of this source is left to insert.");
        return;
      }
      case "split": {
        const at = focusedField();
        if (!at) return;
        editing(splitAt(rows, active, at.field, at.caret, crypto.randomUUID()));
        return goTo(active + 1, at.field);
      }
      case "merge":
        editing(mergedWithNext(rows, active));
        return goTo(active);
      case "play":
        return play(active);
      case "loop":
        setLooping((on) => !on);
        return;
      case "speaker":
        return editing(withOtherSpeaker(rows, active));
      case "take":
        if (onTakeKey) onTakeKey(activeRow.id);
        else toast.info("Takes are recorded by the staff member the audio is assigned to.");
        return;
      case "flag": {
        if (!flags) {
          toast.info("Reviewers mark segments to fix.");
          return;
        }
        const next = new Map(flags);
        if (next.has(activeRow.id)) next.delete(activeRow.id);
        else next.set(activeRow.id, "");
        onFlagsChange(next);
        return;
      }
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const confirmKeys = event.key === "Enter" && event.ctrlKey && !event.altKey && !event.shiftKey && !event.metaKey;
    const command = confirmKeys ? "confirmNext" : altBindingOf(event, GRID_ALT_KEYS)?.command;
    if (!command) return;
    event.preventDefault();
    event.stopPropagation();
    run(command);
  };

  // The rows' callbacks read the latest rows through a ref, so they stay the same function and
  // typing in one row redraws that row only.
  const latest = useRef({ rows, onRowsChange, play });
  latest.current = { rows, onRowsChange, play };
  const events = useMemo<RowEvents>(
    () => ({
      onFocusRow: (index) => setActive(index),
      onTargetChange: (index, text) => latest.current.onRowsChange(withTarget(latest.current.rows, index, text)),
      onSourceChange: (index, text) => {
        const next = latest.current.rows.slice();
        next[index] = { ...next[index]!, source: text };
        latest.current.onRowsChange(next);
      },
      onPlay: (index) => latest.current.play(index),
    }),
    [],
  );

  if (rows.length === 0) {
    return <p className="muted">This audio has no segments yet.</p>;
  }
  return (
    <div className="segment-grid" onKeyDown={onKeyDown}>
      {looping && (
        <p className="muted" role="status">
          Looping the segment's span (Alt+L stops).
        </p>
      )}
      <div ref={scrollRef} className="segment-scroll" data-testid="segment-grid">
        <div className="segment-canvas" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index]!;
            const isActive = item.index === active;
            const rowFindings = findingsByRow.get(row.id) ?? NO_FINDINGS;
            const reviewed = data.reviewedTargets[row.id];
            const changed = reviewedAny && (reviewed === undefined || reviewed !== row.target);
            return (
              <div
                key={item.key}
                ref={virtualizer.measureElement}
                data-index={item.index}
                className="segment-slot"
                style={{ transform: `translateY(${item.start}px)` }}
              >
                <SegmentRow
                  row={row}
                  index={item.index}
                  total={rows.length}
                  active={isActive}
                  editable={editable}
                  sourceEditable={sourceEditable}
                  glossary={data.glossary}
                  findings={rowFindings}
                  events={events}
                  changed={changed}
                  toFix={data.toFix[row.id] ?? null}
                  flagged={flags?.has(row.id) ?? false}
                >
                  {isActive && (
                    <RowAssistant
                      source={row.source}
                      targetLanguage={data.pair.target}
                      matches={matches.data ?? []}
                      matchesLoading={activeSource !== "" && matches.isPending}
                      glossary={data.glossary}
                      findings={rowFindings}
                      onInsert={(text) => insertIntoTarget(text, true)}
                      target={row.target}
                      reviewedTarget={changed && reviewed !== undefined ? reviewed : null}
                      flagNote={flags?.get(row.id)}
                      onFlagNote={(note) => onFlagsChange(new Map(flags ?? []).set(row.id, note))}
                      number={item.index + 1}
                    />
                  )}
                </SegmentRow>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
