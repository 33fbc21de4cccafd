// Checked by `tsc` (npm run typecheck): the React wrapper's props are the element's
// properties and its events arrive as typed `onPix*` handlers.
import type { ComponentProps } from "react";
import { expectTypeOf } from "vitest";
import type {
  PixCopyDetail,
  PixErrorDetail,
  PixExpiredDetail,
  PixPaidDetail,
  PixStatusChangeDetail,
} from "./events.js";
import { PixCheckout } from "./react.js";

type Props = ComponentProps<typeof PixCheckout>;
type Handler<P extends keyof Props> = Parameters<NonNullable<Props[P]>>[0];

expectTypeOf<Props["backendUrl"]>().toEqualTypeOf<string | undefined>();
expectTypeOf<Props["publishableKey"]>().toEqualTypeOf<string | undefined>();
expectTypeOf<Props["sessionId"]>().toEqualTypeOf<string | undefined>();
expectTypeOf<Props["lang"]>().toEqualTypeOf<string | undefined>();

expectTypeOf<Handler<"onPixPaid">>().toEqualTypeOf<CustomEvent<PixPaidDetail>>();
expectTypeOf<Handler<"onPixExpired">>().toEqualTypeOf<CustomEvent<PixExpiredDetail>>();
expectTypeOf<Handler<"onPixStatusChange">>().toEqualTypeOf<CustomEvent<PixStatusChangeDetail>>();
expectTypeOf<Handler<"onPixCopy">>().toEqualTypeOf<CustomEvent<PixCopyDetail>>();
expectTypeOf<Handler<"onPixError">>().toEqualTypeOf<CustomEvent<PixErrorDetail>>();

export const ok: Props = {
  backendUrl: "https://shop.example",
  publishableKey: "pk_123",
  sessionId: "payses_123",
  onPixPaid: (event) => void event.detail.session.paid_at,
};

// @ts-expect-error: sessionId is a string, not a number
export const wrongType: Props = { sessionId: 42 };

// @ts-expect-error: the paid detail has no `code` (that is pix-error's)
export const wrongDetail: Props = { onPixPaid: (event) => event.detail.code };

// @ts-expect-error: no such event prop
export const unknownEvent: Props = { onPixRefunded: () => {} };
