/// <reference lib="dom" />
// The amount a merchant types in reais in a drawer: a refund made ("Valor devolvido"), a MED's
// block ("Valor bloqueado"), what a MED returned. One field for all of them; what each amount may
// be stays with its drawer, which reads the text with `parseReais` (lib/format.ts) and says what
// is wrong.
import { Input, Label, Text } from "@medusajs/ui";

/**
 * A labelled amount in reais, as typed (prefilled with `reaisText`), with a decimal keypad on a
 * phone. `error` is what is wrong with the amount, shown under it and marking it invalid; null
 * when it is right.
 */
export function MoneyField({
  id,
  label,
  value,
  onChange,
  error,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (text: string) => void;
  error: string | null;
}) {
  return (
    <div className="flex flex-col gap-y-1">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        inputMode="decimal"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error !== null}
      />
      {error !== null ? (
        <Text size="xsmall" className="text-ui-fg-error">
          {error}
        </Text>
      ) : null}
    </div>
  );
}
