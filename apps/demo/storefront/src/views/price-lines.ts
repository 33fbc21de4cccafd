import { html } from "lit";
import { formatLine, type PriceLine } from "../totals";

/** A total with its lines: Produtos, Frete, the discounts, Total. */
export function priceLinesView(lines: PriceLine[]) {
  return html`<dl class="summary">
    ${lines.map(
      (line) =>
        html`<dt>${line.label}</dt>
          <dd class=${line.kind === "discount" ? "discount" : ""}>
            ${line.kind === "total" ? html`<strong>${formatLine(line)}</strong>` : formatLine(line)}
          </dd>`,
    )}
  </dl>`;
}
