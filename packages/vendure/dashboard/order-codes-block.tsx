import {
  api,
  Badge,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
  type PageContextValue,
} from "@vendure/dashboard";
import { Fragment } from "react";
import { MedControls } from "./med-controls";
import { ORDER_CODE_FIELDS, type OrderCode } from "./order-code";
import { RecordReturn } from "./record-return";
import { useAdminQuery } from "./use-admin-query";
import { devolucaoLine, reais } from "./money";

const ORDER_CODES = /* GraphQL */ `
  query PixCheckoutOrderCodes($orderId: ID!) {
    pixCheckoutOrderCodes(orderId: $orderId) { ${ORDER_CODE_FIELDS} }
  }
`;

/** The money columns, in the order they add up: received = captured + blocked + owed + returned. */
const MONEY: { pick: (code: OrderCode) => number; title: string; onlyWhenUsed?: boolean }[] = [
  { pick: (code) => code.asked, title: "Pedido" },
  { pick: (code) => code.received, title: "Recebido" },
  { pick: (code) => code.captured, title: "Capturado" },
  { pick: (code) => code.contested, title: "Bloqueado (MED)", onlyWhenUsed: true },
  { pick: (code) => code.owedBack, title: "A devolver" },
  { pick: (code) => code.returned, title: "Devolvido" },
];

const BECAME: Record<
  OrderCode["became"],
  { label: string; variant: "success" | "warning" | "secondary" | "destructive" }
> = {
  captured: { label: "Capturado", variant: "success" },
  held: { label: "Retido", variant: "destructive" },
  waiting: { label: "Aguardando", variant: "warning" },
  ended: { label: "Encerrado", variant: "secondary" },
};

/** The order's Pix and boleto codes: what each asked, received and became, and what goes back. */
export function OrderCodesBlock({ context }: { context: PageContextValue }) {
  const orderId = context.entity?.id as string | undefined;
  const result = useAdminQuery<{ pixCheckoutOrderCodes: OrderCode[] }>(
    () => api.query(ORDER_CODES, { orderId }),
    [orderId],
  );
  if (result.state === "loading")
    return <p className="text-sm text-muted-foreground">Carregando…</p>;
  if (result.state === "failed") {
    return (
      <p className="text-sm text-destructive">Não foi possível ler os códigos: {result.message}</p>
    );
  }
  const codes = result.data.pixCheckoutOrderCodes;
  if (codes.length === 0) {
    return (
      <p className="text-sm text-muted-foreground">Nenhum código Pix ou boleto neste pedido.</p>
    );
  }
  const sum = (pick: (code: OrderCode) => number) =>
    codes.reduce((total, code) => total + pick(code), 0);
  // A MED's column shows only on an order one touched, so the usual block stays narrow.
  const columns = MONEY.filter(
    (column) => !column.onlyWhenUsed || codes.some((code) => code.med || column.pick(code) > 0),
  );
  // Each code is two rows: its money in narrow columns, then what became of it in words, so the
  // block fits the order page's main column at 1024 px.
  return (
    <Table data-testid="pix-checkout-order-codes" className="text-sm">
      <TableHeader>
        <TableRow>
          <TableHead>Código</TableHead>
          {columns.map((column) => (
            <TableHead key={column.title} className="text-right">
              {column.title}
            </TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {codes.map((code) => (
          <Fragment key={code.paymentId}>
            <TableRow className="border-b-0">
              <TableCell className="whitespace-normal">
                <span className="mr-1">{code.method === "boleto" ? "Boleto" : "Pix"}</span>{" "}
                <Badge variant={BECAME[code.became].variant}>{BECAME[code.became].label}</Badge>
              </TableCell>
              {columns.map((column) => (
                <TableCell key={column.title} className="text-right">
                  {reais(column.pick(code))}
                </TableCell>
              ))}
            </TableRow>
            <TableRow>
              <TableCell
                colSpan={columns.length + 1}
                className="whitespace-normal pt-0 text-muted-foreground"
              >
                {code.words}
                {code.owedBack > 0 && code.devolucao ? ` · ${devolucaoLine(code.devolucao)}` : ""}
                <div className="font-mono text-xs break-all">{code.chargeId}</div>
                {code.became === "held" && code.owedBack > 0 ? (
                  <div className="mt-2 max-w-md">
                    <RecordReturn paymentId={code.paymentId} onRecorded={result.reload} />
                  </div>
                ) : null}
                <MedControls code={code} onRecorded={result.reload} />
              </TableCell>
            </TableRow>
          </Fragment>
        ))}
        <TableRow className="font-medium">
          <TableCell>Total</TableCell>
          {columns.map((column) => (
            <TableCell key={column.title} className="text-right">
              {reais(sum(column.pick))}
            </TableCell>
          ))}
        </TableRow>
      </TableBody>
    </Table>
  );
}
