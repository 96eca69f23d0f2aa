import { x } from "@support/domain"; export const y = x;
