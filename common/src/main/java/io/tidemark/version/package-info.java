/**
 * Which Tidemark this is. Parameters and return values are non-null unless documented.
 */
package io.tidemark.version;
