import SelectInput from 'ink-select-input';
import { MenuIndicator } from './MenuIndicator.tsx';
import { MenuItem } from './MenuItem.tsx';
import { useKeysEnabled } from './use-keys.ts';

/** One choice of a menu. */
export interface MenuChoice<V> {
  readonly key?: string;
  readonly label: string;
  readonly value: V;
}

type Props<V> = {
  readonly items: readonly MenuChoice<V>[];
  readonly onSelect: (value: V) => void;
  readonly limit?: number;
};

/** An ink-select-input menu drawn with the theme (so NO_COLOR holds here too): arrows or j/k, enter, or 1–9. */
export function Menu<V>({ items, onSelect, limit }: Props<V>) {
  const enabled = useKeysEnabled();
  return (
    <SelectInput
      isFocused={enabled}
      items={items.map((i) => ({ ...(i.key !== undefined ? { key: i.key } : {}), label: i.label, value: i.value }))}
      onSelect={(item) => onSelect(item.value)}
      indicatorComponent={MenuIndicator}
      itemComponent={MenuItem}
      {...(limit !== undefined ? { limit } : {})}
    />
  );
}
