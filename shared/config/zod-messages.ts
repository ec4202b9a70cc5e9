/**
 * zod/mini (which the schemas use: tree-shakable, so a Lambda bundle carries only the validators it
 * needs) ships without error messages; this installs zod's English ones ("Too small: expected number
 * to be >=0"), as full zod does. Imported for its effect by every module that declares schemas.
 */
import { en } from "zod/locales";
import { config } from "zod/mini";

config(en());
