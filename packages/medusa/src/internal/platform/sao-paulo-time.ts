// São Paulo's days: the shared module (@pix-checkout/client/books), under the name the alert
// e-mail imports it by (its picture is fingerprinted by its source).
export { SAO_PAULO } from "@pix-checkout/client/books";
