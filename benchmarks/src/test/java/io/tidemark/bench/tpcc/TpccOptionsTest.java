package io.tidemark.bench.tpcc;

import io.tidemark.bench.RunSettings;
import io.tidemark.bench.txn.TxMode;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TpccOptionsTest {

    private static TpccOptions options(int warehouses, double scale, List<Integer> threads, List<TxMode> modes) {
        return new TpccOptions(warehouses, scale, threads, TpccMix.NEW_ORDER, modes, new RunSettings(Duration.ZERO,
                Duration.ofSeconds(1), Path.of("unused")));
    }

    private static String refusal(int warehouses, double scale, List<Integer> threads, List<TxMode> modes) {
        return assertThrows(IllegalArgumentException.class, () -> options(warehouses, scale, threads, modes))
                .getMessage();
    }

    @Test
    void fastPathIsRefusedBecauseTheDistrictCounterMustCommitWithItsOrder() {
        String message = refusal(1, 0.1, List.of(1), List.of(TxMode.GENERIC, TxMode.FASTPATH));

        assertTrue(message.contains("mode fastpath is refused"), message);
        assertTrue(message.contains("D_NEXT_O_ID"), message);
    }

    @Test
    void badInputIsRefusedNamingTheOption() {
        List<TxMode> generic = List.of(TxMode.GENERIC);
        assertTrue(refusal(0, 0.1, List.of(1), generic).contains("--warehouses"));
        assertTrue(refusal(1, 0, List.of(1), generic).contains("--scale"));
        assertTrue(refusal(1, 1.01, List.of(1), generic).contains("--scale"));
        assertTrue(refusal(1, 0.1, List.of(), generic).contains("--threads"));
        assertTrue(refusal(1, 0.1, List.of(2, 0), generic).contains("--threads"));
        assertTrue(refusal(1, 0.1, List.of(1), List.of()).contains("--modes"));
        assertTrue(refusal(1, 0.1, List.of(1), List.of(TxMode.RAW)).contains("mode raw is refused"));
        assertTrue(refusal(1, 0.1, List.of(1), List.of(TxMode.GENERIC, TxMode.RAW_AFTER_BEGIN))
                .contains("mode raw-after-begin is refused"));
        assertTrue(refusal(1, 0.1, List.of(1), List.of(TxMode.GENERIC, TxMode.GENERIC)).contains("twice"));
    }

    @Test
    void scaleShrinksItemsCustomersAndOrdersWithFloors() {
        assertEquals(new TpccScale(2, 10_000, 300, 300, 90), TpccScale.of(2, 0.1));
        assertEquals(new TpccScale(1, 100_000, 3000, 3000, 900), TpccScale.of(1, 1));
        assertEquals(new TpccScale(1, 100, 30, 30, 9), TpccScale.of(1, 0.0001));
    }

    @Test
    void mixesParseByTheirLabels() {
        assertEquals(TpccMix.NEW_ORDER_PAYMENT, TpccMix.fromLabel("new-order+payment"));
        assertEquals(TpccMix.NEW_ORDER, TpccMix.fromLabel("new-order"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TpccMix.fromLabel("delivery")).getMessage()
                .contains("use new-order or new-order+payment"));
    }
}
