import { useRef, type KeyboardEvent } from 'react';

/** One tab of a tab list. */
export interface TabItem<Id extends string> {
  readonly id: Id;
  readonly label: string;
}

/** Props of a vertical tab list (the panels are rendered by the caller with `tabPanelProps`). */
export interface TabListProps<Id extends string> {
  readonly label: string;
  readonly tabs: readonly TabItem<Id>[];
  readonly selected: Id;
  readonly onSelect: (id: Id) => void;
}

/** ARIA attributes for the panel of tab `id`. */
export function tabPanelProps(id: string) {
  return { role: 'tabpanel', id: `panel-${id}`, 'aria-labelledby': `tab-${id}`, tabIndex: 0 } as const;
}

/** A vertical tab list with the WAI-ARIA keyboard pattern (arrows, Home, End; one tab stop). */
export function TabList<Id extends string>({ label, tabs, selected, onSelect }: TabListProps<Id>) {
  const refs = useRef(new Map<Id, HTMLButtonElement>());
  const move = (e: KeyboardEvent, index: number) => {
    const last = tabs.length - 1;
    const next =
      e.key === 'ArrowDown' ? (index === last ? 0 : index + 1)
      : e.key === 'ArrowUp' ? (index === 0 ? last : index - 1)
      : e.key === 'Home' ? 0
      : e.key === 'End' ? last
      : null;
    if (next === null) return;
    e.preventDefault();
    const tab = tabs[next];
    if (!tab) return;
    onSelect(tab.id);
    refs.current.get(tab.id)?.focus();
  };
  return (
    <div role="tablist" aria-label={label} aria-orientation="vertical">
      {tabs.map((tab, i) => (
        <button
          key={tab.id}
          ref={(el) => {
            if (el) refs.current.set(tab.id, el);
            else refs.current.delete(tab.id);
          }}
          type="button"
          role="tab"
          className="tab"
          id={`tab-${tab.id}`}
          aria-selected={tab.id === selected}
          aria-controls={`panel-${tab.id}`}
          tabIndex={tab.id === selected ? 0 : -1}
          onClick={() => onSelect(tab.id)}
          onKeyDown={(e) => move(e, i)}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}
