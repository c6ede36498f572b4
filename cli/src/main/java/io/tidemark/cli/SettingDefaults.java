package io.tidemark.cli;

import io.tidemark.config.Setting;
import io.tidemark.config.TidemarkConfig;

import java.util.List;
import java.util.ListResourceBundle;

/**
 * Every setting's default under {@code default.<key>}, as a resource bundle, so that an option's default and help can
 * be those of the setting it overrides ({@code ${bundle:default.tidemark.tso.port}}) without writing the value a second
 * time: picocli's annotations only take constants. {@link Main#configured} gives it to every command. The prefix keeps
 * the keys apart from those picocli looks up option descriptions under ({@code <command path>.<option>}, which for
 * {@code tidemark tso --port} is {@code tidemark.tso.port}).
 */
public final class SettingDefaults extends ListResourceBundle {

    /** What precedes a setting's key in this bundle. */
    private static final String PREFIX = "default.";

    @Override
    protected Object[][] getContents() {
        List<Setting<?>> all = TidemarkConfig.all();
        Object[][] contents = new Object[all.size()][];
        for (int i = 0; i < all.size(); i++) {
            Setting<?> setting = all.get(i);
            String shown = setting.defaultInSiteFile();
            contents[i] = new Object[] {PREFIX + setting.key(), shown.isEmpty() ? "unset" : shown};
        }
        return contents;
    }
}
