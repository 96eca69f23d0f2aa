import { y } from "@support/application"; export const z = y;
